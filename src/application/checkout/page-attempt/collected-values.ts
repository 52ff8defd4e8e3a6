import { methodParameterIssues, type MethodDescription, type MethodField } from '../../../domain/payment/method-fields';
import type { MethodFieldProblem } from '../problems';

/**
 * The payer's values of the fields the page collected for a method (`bankDetails[cbu]` goes into
 * the nested set), checked with the method's rules, each collected field now required.
 */
export function collectedValues(
  description: MethodDescription,
  collect: readonly MethodField[],
  typed: Record<string, string>,
): { values: Record<string, unknown>; problems: MethodFieldProblem[] } {
  const values: Record<string, unknown> = {};
  for (const field of collect) {
    const value = typed[field.name]?.trim();
    if (!value) continue;
    const nested = /^([^[]+)\[([^\]]+)\]$/.exec(field.name);
    if (nested) values[nested[1]] = { ...((values[nested[1]] as Record<string, string>) ?? {}), [nested[2]]: value };
    else values[field.name] = value;
  }
  const asked = new Set(collect.map((f) => f.name.split('[')[0]));
  const rules = { ...description, fields: description.fields.filter((f) => asked.has(f.name)).map((f) => ({ ...f, presence: 'required' as const })) };
  const labelOf = (path: readonly string[]): string => {
    const top = description.fields.find((f) => f.name === path[0]);
    const member = path.length > 1 ? top?.fields?.find((f) => f.name === path[1]) : undefined;
    return member?.label ?? top?.label ?? path.join(' ');
  };
  const problems = methodParameterIssues(rules, values).map((issue): MethodFieldProblem => ({
    field: issue.path.length > 1 ? `${issue.path[0]}[${issue.path[1]}]` : issue.path[0]!,
    label: labelOf(issue.path),
    problem: issue.message === 'This value should not be blank.' ? 'missing' : 'invalid',
    detail: issue.message,
  }));
  return { values, problems };
}
