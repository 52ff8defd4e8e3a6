/**
 * The operator API under `/admin`. Every route registered here sits behind the admin token; each
 * feature adds its routes through its own `register...` function in this folder.
 */
import Router from '@koa/router';
import type Ajv from 'ajv';
import { requireAdminToken } from './admin-auth';

export interface AdminRouteDeps {
  adminToken: string;
}

export type AdminRouteRegistrar = (router: Router, ajv: Ajv) => void;

export function registerAdminRoutes(router: Router, ajv: Ajv, deps: AdminRouteDeps, registrars: AdminRouteRegistrar[]): void {
  const admin = new Router({ prefix: '/admin' });
  admin.use(requireAdminToken(deps.adminToken));
  for (const register of registrars) register(admin, ajv);
  router.use(admin.routes(), admin.allowedMethods());
}
