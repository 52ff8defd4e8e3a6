/**
 * Fields every log line written during some work carries: the id of the request that caused it,
 * also in work that outlives the request (its callback's delivery). The logger adapter keeps them
 * for the asynchronous work started inside `work`.
 */
export type LogFields = Readonly<Record<string, string>>;

export type WithLogFields = <T>(fields: LogFields, work: () => T) => T;

/** For parts built without a logger that keeps fields (tests, tools): the work runs as it is. */
export const withoutLogFields: WithLogFields = (_fields, work) => work();
