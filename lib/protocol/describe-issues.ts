import type { z } from 'zod';

/**
 * Turns zod issues into lines a person can act on, each naming its field and saying what to
 * change in words: `config.timeScale: must be at least 0.001 — it is -2`. What was sent is quoted
 * when the parse kept it (`{ reportInput: true }`); a message a schema wrote itself is kept as it is.
 */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(root)';
    return `${path}: ${describeIssue(issue)}`;
  });
}

// zod's own English messages start with one of these; a schema's own message (`.min(1, '…')`) does not.
const ZOD_WORDS =
  /^(Too small|Too big|Invalid input|Invalid option|Unrecognized key|Invalid string|Invalid number|Invalid element|Invalid key|Invalid value|Invalid)\b/;

/** One issue in words: what the value must be, and what it is when the parse kept it. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  if (!ZOD_WORDS.test(issue.message)) return issue.message;
  const sent =
    'input' in issue ? `${issue.input === undefined ? '' : ` — it is ${showValue(issue.input)}`}` : '';
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      const small = issue.code === 'too_small';
      const bound = Number(small ? issue.minimum : issue.maximum);
      const inclusive = issue.inclusive !== false;
      const than = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
      if (issue.origin === 'string')
        return `must be ${than} ${countOf(bound, 'character')} long${sentLength(issue)}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return `must have ${than} ${countOf(bound, 'item')}${sentLength(issue)}`;
      return `must be ${than} ${formatNumber(bound)}${sent}`;
    }
    case 'invalid_type': {
      if (issue.message.endsWith('received undefined')) return `is missing: give ${article(issue.expected)}`;
      if (issue.expected === 'int') return `must be a whole number${sent}`;
      if (issue.expected === 'number' && typeof issue.input === 'number')
        return `must be a finite number${sent}`;
      return `must be ${article(issue.expected)}${sent}`;
    }
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${showValue(issue.values[0])}${sent}`
        : `must be one of ${issue.values.map(showValue).join(', ')}${sent}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.map((k) => `"${k}"`).join(', ')}: remove ${issue.keys.length === 1 ? 'it' : 'them'}`;
    case 'not_multiple_of':
      return `must be a multiple of ${formatNumber(Number(issue.divisor))}${sent}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? `does not have the expected form (${issue.pattern ?? 'a pattern'})${sent}`
        : `must be a valid ${issue.format}${sent}`;
    case 'invalid_union':
      return `is not any of the accepted forms${sent}`;
    default:
      return issue.message;
  }
}

/** A number as a person writes it: 2,147,483,647; 0.001; -2. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 10_000 && Number.isInteger(n) ? n.toLocaleString('en-US') : String(n);
}

function countOf(n: number, noun: string): string {
  return `${formatNumber(n)} ${noun}${n === 1 ? '' : 's'}`;
}

function sentLength(issue: { input?: unknown }): string {
  const value = issue.input;
  if (typeof value === 'string') return ` — it has ${countOf(value.length, 'character')}`;
  if (Array.isArray(value)) return ` — it has ${countOf(value.length, 'item')}`;
  return '';
}

function article(expected: string): string {
  const words: Record<string, string> = {
    number: 'a number',
    int: 'a whole number',
    string: 'a text',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
  };
  return words[expected] ?? `a ${expected}`;
}

/** What was sent, short: a number as is, a text quoted (at most 60 characters), else its kind. */
function showValue(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'not a number' : formatNumber(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : typeof value;
}
