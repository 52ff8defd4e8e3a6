/**
 * The log fields of the work in progress, carried along its asynchronous calls: a request's id
 * reaches every line written while the request is handled, however deep the call that writes it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LogFields, WithLogFields } from '../../application/ports/log-context';

const storage = new AsyncLocalStorage<LogFields>();

/** Runs `work` so that every line it logs carries `fields` (nested calls replace them). */
export const withLogFields: WithLogFields = (fields, work) => storage.run(fields, work);

/** The fields of the work in progress, if any. */
export const currentLogFields = (): LogFields | undefined => storage.getStore();
