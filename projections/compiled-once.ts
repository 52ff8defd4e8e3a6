/**
 * Statement texts built and compiled through the query builder once, then run again with new
 * values: the live projector runs the same few statements for every batch, and building and
 * compiling one cost it about as much as running it. A text is kept by database handle (its
 * adapter), an owner that stands for the statement, and the plugins in force: a rebuild's
 * redirection to scratch tables is a plugin, so its statements stay its own.
 */
import type { Kysely } from 'kysely';

const textsByAdapter = new WeakMap<object, Map<object, Map<string, string>>>();
const pluginIds = new WeakMap<object, number>();
let nextPluginId = 0;
/** A rebuild brings a plugin of its own; an owner seeing more than this many sets starts over. */
const MAX_PLUGIN_SETS = 8;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function compiledOnce(db: Kysely<any>, owner: object, compile: () => string): string {
  const executor = db.getExecutor();
  let byOwner = textsByAdapter.get(executor.adapter);
  if (!byOwner) textsByAdapter.set(executor.adapter, (byOwner = new Map()));
  let byPlugins = byOwner.get(owner);
  if (!byPlugins) byOwner.set(owner, (byPlugins = new Map()));
  let plugins = '';
  for (const plugin of executor.plugins) {
    let id = pluginIds.get(plugin);
    if (id === undefined) pluginIds.set(plugin, (id = nextPluginId++));
    plugins += `${id},`;
  }
  let text = byPlugins.get(plugins);
  if (text === undefined) {
    text = compile();
    if (byPlugins.size >= MAX_PLUGIN_SETS) byPlugins.clear();
    byPlugins.set(plugins, text);
  }
  return text;
}
