/**
 * The operator API under `/admin`. Every route registered here sits behind the admin token: the
 * app checks it before routing on every spelling of `/admin` (admin-guard.ts), and this router
 * checks it again; each feature adds its routes through its own `register...` function here.
 */
import Router from '@koa/router';
import type Ajv from 'ajv';
import { ROUTER_OPTIONS } from '../router-options';
import { requireAdminToken } from './admin-auth';

export interface AdminRouteDeps {
  adminToken: string;
}

export type AdminRouteRegistrar = (router: Router, ajv: Ajv) => void;

export function registerAdminRoutes(router: Router, ajv: Ajv, deps: AdminRouteDeps, registrars: AdminRouteRegistrar[]): void {
  const admin = new Router({ ...ROUTER_OPTIONS, prefix: '/admin' });
  admin.use(requireAdminToken(deps.adminToken));
  for (const register of registrars) register(admin, ajv);
  // Methods are answered by the app's router (405 with Allow, in the error shape).
  router.use(admin.routes());
}
