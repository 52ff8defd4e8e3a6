/**
 * docker-compose.yml checked against the code, without a Docker engine: every gateway service runs
 * a role the CLI has, sets only variables the gateway reads, publishes the port it listens on, and
 * the load-balanced API processes share one public base URL, that of the load balancer in front.
 */
import { expect } from 'chai';
import { parse } from 'yaml';
import { cliRoles, environmentVariablesRead, HTTP_ROLES, packageJson, readRepoFile, repoHas } from './repo';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Service = Record<string, any>;

interface GatewayService {
  name: string;
  role: string;
  env: Record<string, string>;
  service: Service;
}

/** The container port of a `ports:` entry (`"8081:8080"`, `"8080"`, or the long form). */
function containerPort(entry: unknown): string {
  if (typeof entry === 'object' && entry) return String((entry as { target: unknown }).target);
  return String(entry).split('/')[0].split(':').pop()!;
}

/** The host port of a `ports:` entry. */
function hostPort(entry: unknown): string | null {
  if (typeof entry === 'object' && entry) return (entry as { published?: unknown }).published == null ? null : String((entry as { published: unknown }).published);
  const parts = String(entry).split('/')[0].split(':');
  return parts.length > 1 ? parts[parts.length - 2] : null;
}

/** `${NAME:-default}` → default; a plain value → itself. */
function defaultOf(value: string): string {
  const m = /^\$\{[A-Z_][A-Z0-9_]*:?-(.*)\}$/.exec(value);
  return m ? m[1] : value;
}

function environmentOf(service: Service): Record<string, string> {
  const env = service.environment ?? {};
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((e: string) => [e.split('=')[0], e.slice(e.indexOf('=') + 1)]));
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]));
}

describe('docker-compose.yml', () => {
  let services: Array<[string, Service]>;
  let roles: string[];
  let scripts: Record<string, string>;
  before(() => {
    const compose = parse(readRepoFile('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
    services = Object.entries(compose.services);
    roles = cliRoles();
    scripts = packageJson().scripts;
  });

  /** The services built from this repository's Dockerfile, with the role each runs. */
  const gatewayServices = (): GatewayService[] => services
    .filter(([, s]) => s.build !== undefined)
    .map(([name, service]) => {
      const command: string[] = service.command ?? ['npm', 'start'];
      expect(Array.isArray(command), `${name}: command in exec form`).to.equal(true);
      let role: string;
      if (command[0] === 'npm' && command[1] === 'start') role = 'all';
      else {
        expect(command.slice(0, 2), `${name}: command`).to.deep.equal(['npm', 'run']);
        expect(scripts, `${name}: npm script ${command[2]}`).to.have.property(command[2]);
        expect(command[3], `${name}: arguments after --`).to.equal('--');
        role = command[4];
      }
      return { name, role, env: environmentOf(service), service };
    });
  let gateways: GatewayService[];
  let apis: GatewayService[];
  before(() => {
    gateways = gatewayServices();
    apis = gateways.filter((g) => g.role === 'api');
  });

  it('runs the gateway image as at least two API processes and the workers', () => {
    expect(gateways.map((g) => g.role)).to.include.members(['api', 'projector', 'notifier', 'scheduler']);
    expect(apis.length).to.be.at.least(2);
  });

  it('runs in each gateway service a process role the CLI has', () => {
    expect(roles).to.include.members(['all', 'api', 'projector', 'notifier', 'scheduler']);
    for (const g of gateways) expect(g.role, g.name).to.be.oneOf(roles);
  });

  it('sets only environment variables the gateway reads', () => {
    const read = environmentVariablesRead();
    expect([...read], 'variables found in src/config.ts').to.include.members(['PORT', 'PUBLIC_BASE_URL', 'DATABASE_URL', 'VAULT_KEY']);
    for (const g of gateways) {
      for (const name of Object.keys(g.env)) expect(read.has(name), `${g.name}: ${name} is read by the gateway`).to.equal(true);
    }
  });

  it('publishes, for a process that listens, the PORT it listens on, and nothing for a process that does not', () => {
    for (const g of gateways) {
      const ports: unknown[] = [...(g.service.ports ?? []), ...(g.service.expose ?? [])];
      if (!HTTP_ROLES.includes(g.role)) {
        expect(ports, `${g.name} (${g.role}) has no listener`).to.be.empty;
        continue;
      }
      const port = g.env.PORT ?? '8080';
      for (const entry of ports) expect(containerPort(entry), `${g.name}: ${String(entry)}`).to.equal(port);
    }
  });

  it('checks the health of the processes that serve /health, and not of those that serve nothing', () => {
    for (const g of gateways) {
      const disabled = g.service.healthcheck?.disable === true || String(g.service.healthcheck?.test ?? '').includes('NONE');
      expect(disabled, `${g.name} (${g.role}) health check disabled`).to.equal(!HTTP_ROLES.includes(g.role));
    }
  });

  it('gives every gateway process the same vault key and the same database', () => {
    for (const name of ['VAULT_KEY', 'DATABASE_URL', 'EVENT_STORE']) {
      const values = new Set(gateways.map((g) => g.env[name]));
      expect([...values], name).to.have.length(1);
      expect([...values][0], name).to.be.a('string');
    }
  });

  it('configures the load-balanced API processes with one PUBLIC_BASE_URL', () => {
    const urls = new Set(apis.map((a) => a.env.PUBLIC_BASE_URL));
    expect([...urls]).to.have.length(1);
    expect([...urls][0]).to.be.a('string');
  });

  it('puts a load balancer at that URL, in front of every API process', () => {
    const publicUrl = new URL(defaultOf(apis[0].env.PUBLIC_BASE_URL));
    const publicPort = publicUrl.port || (publicUrl.protocol === 'https:' ? '443' : '80');
    const publishers = services.filter(([, s]) => (s.ports ?? []).some((p: unknown) => hostPort(p) === publicPort));
    expect(publishers.map(([name]) => name), `services publishing port ${publicPort}`).to.have.length(1);
    const [lbName, lb] = publishers[0];
    expect(gateways.map((g) => g.name), 'the load balancer is not a gateway process').not.to.include(lbName);
    const dependsOn = Array.isArray(lb.depends_on) ? lb.depends_on : Object.keys(lb.depends_on ?? {});
    expect(dependsOn).to.include.members(apis.map((a) => a.name));

    const mounted = (lb.volumes ?? []).map((v: string) => String(v).split(':')[0]).filter((p: string) => p.startsWith('./'));
    expect(mounted, 'the load balancer configuration from the repository').to.have.length(1);
    expect(repoHas(mounted[0]), mounted[0]).to.equal(true);
    const config = readRepoFile(mounted[0]);
    for (const api of apis) expect(config, `${mounted[0]} sends to ${api.name}`).to.include(`${api.name}:${api.env.PORT ?? '8080'}`);
    for (const port of (lb.ports ?? []).map(containerPort)) expect(config, `${mounted[0]} listens on ${port}`).to.match(new RegExp(`listen\\s+${port}\\b`));
  });

  it('trusts X-Forwarded-For only in processes that clients cannot reach around the load balancer', () => {
    for (const g of gateways.filter((x) => x.env.TRUST_PROXY === 'true')) {
      expect(g.service.ports ?? [], `${g.name} publishes no port of its own`).to.be.empty;
    }
    for (const api of apis) expect(api.env.TRUST_PROXY, `${api.name} behind the load balancer`).to.equal('true');
  });
});
