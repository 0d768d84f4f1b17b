import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retry-after';

const DATE = 'Wed, 21 Oct 2015 07:28:00 GMT';
const AT = Date.parse(DATE);

/** [what it is, headers, the run's now, the wait in ms or undefined for "no hint"]. */
const table: [string, Record<string, string>, number, number | undefined][] = [
  [
    'retry-after-ms first, as float milliseconds',
    { 'retry-after-ms': '250.5', 'retry-after': '9' },
    0,
    250.5,
  ],
  ['retry-after in whole seconds', { 'retry-after': '7' }, 0, 7_000],
  ['retry-after in fractional seconds', { 'retry-after': '1.5' }, 0, 1_500],
  [
    'an empty retry-after-ms leaves retry-after to speak',
    { 'retry-after-ms': '', 'retry-after': '7' },
    0,
    7_000,
  ],
  ['a blank retry-after-ms likewise', { 'retry-after-ms': '   ', 'retry-after': '7' }, 0, 7_000],
  ['an unreadable retry-after-ms likewise', { 'retry-after-ms': 'soon', 'retry-after': '2' }, 0, 2_000],
  ['surrounding whitespace is trimmed', { 'retry-after': '  3 ' }, 0, 3_000],
  ['retry-after-ms of 0 is a hint of no wait', { 'retry-after-ms': '0', 'retry-after': '7' }, 0, 0],
  ['hex is not a number of seconds', { 'retry-after': '0x10' }, 0, undefined],
  ['hex is not a number of milliseconds', { 'retry-after-ms': '0x10' }, 0, undefined],
  ['an exponent is not in the grammar', { 'retry-after': '1e3' }, 0, undefined],
  ['a negative wait is no hint', { 'retry-after': '-5' }, 0, undefined],
  [
    'a negative retry-after-ms is no hint, retry-after speaks',
    { 'retry-after-ms': '-1', 'retry-after': '4' },
    0,
    4_000,
  ],
  ['an empty retry-after is no hint', { 'retry-after': '' }, 0, undefined],
  ['words are no hint', { 'retry-after': 'later' }, 0, undefined],
  ['an HTTP-date, measured on the caller clock', { 'retry-after': DATE }, AT - 30_000, 30_000],
  ['an HTTP-date already past waits 0', { 'retry-after': DATE }, AT + 5_000, 0],
  ['no header at all', {}, 0, undefined],
];

describe('parseRetryAfter: the one reading of a wait hint', () => {
  it.each(table)('%s', (_what, headers, nowMs, expected) => {
    expect(parseRetryAfter({ headers: new Headers(headers), nowMs })).toBe(expected);
    // A plain record (an SDK error's headers) reads the same, names in any case.
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    expect(parseRetryAfter({ headers: upper, nowMs })).toBe(expected);
  });

  it('reads no wall clock: the same date and now give the same wait at any time', () => {
    expect(parseRetryAfter({ headers: { 'retry-after': DATE }, nowMs: AT - 1_000 })).toBe(1_000);
  });

  it('has no hint without headers', () => {
    expect(parseRetryAfter({ headers: undefined, nowMs: 0 })).toBeUndefined();
    expect(parseRetryAfter({ headers: 'retry-after: 7', nowMs: 0 })).toBeUndefined();
  });
});
