'use strict';
/**
 * Node options a CLI command's process starts with, for the few commands that need other than the
 * defaults. The launcher (launch.cjs) passes them to the process it starts; V8 reads them only when
 * a process starts, so a command cannot set them for itself.
 *
 * Plain JavaScript, beside the launcher, because the launcher runs before anything is compiled.
 */

/**
 * A replay (rebuild or verify) holds a page of up to 50,000 events and the rows folded from them
 * while it allocates more: V8's default young generation fills many times per page, and every
 * young-generation collection copies the whole page again. A 64-128 MB semi-space fits a page, so
 * collections are fewer and copy less: about half the garbage-collection time of a rebuild, for
 * about 250 MB more memory (docs/benchmarks.md, "Replay").
 */
const REPLAY_FLAGS = ['--max-semi-space-size=128', '--min-semi-space-size=64'];

const BY_COMMAND = {
  projections: { rebuild: REPLAY_FLAGS, verify: REPLAY_FLAGS },
};

/** The node options for `args` (the CLI's arguments, command first); [] for most commands. */
function nodeFlagsFor(args) {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const command = BY_COMMAND[words[0]];
  return (command && command[words[1]]) || [];
}

module.exports = { nodeFlagsFor, REPLAY_FLAGS };
