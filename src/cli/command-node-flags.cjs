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
 * about 250 MB more memory (measured with `npm run bench`, "Replay").
 */
const REPLAY_FLAGS = ['--max-semi-space-size=128', '--min-semi-space-size=64'];

/**
 * The whole gateway in one process (`npm start`, or the `all` role) runs five JavaScript threads,
 * each with its own heap, and by default every one of them hands the parallel and concurrent parts
 * of its garbage collections to V8's shared helper threads, which run at normal priority. The
 * projector's and the workers' collections then compete with the HTTP thread even though those
 * threads themselves run at a lower priority. Single-threaded collection keeps each heap's work on
 * its own thread, at that thread's priority, which lowers the SALE p99 at 300/s (a median of about
 * 16 ms instead of 21) for about the same CPU and the same peak memory (measured with `npm run bench`).
 * Processes of one role keep V8's defaults.
 */
const ONE_PROCESS_FLAGS = ['--single-threaded-gc'];

const BY_COMMAND = {
  projections: { rebuild: REPLAY_FLAGS, verify: REPLAY_FLAGS },
};

/** The node options for `args` (the CLI's arguments, command first); [] for most commands. */
function nodeFlagsFor(args) {
  const words = args.filter((arg) => !arg.startsWith('-'));
  if (words[0] === 'all') return ONE_PROCESS_FLAGS;
  const command = BY_COMMAND[words[0]];
  return (command && command[words[1]]) || [];
}

/** The node options of `npm start`'s process: the whole gateway in one. */
function gatewayNodeFlags() {
  return ONE_PROCESS_FLAGS;
}

module.exports = { nodeFlagsFor, gatewayNodeFlags, REPLAY_FLAGS };
