import { describe, expect, it } from 'vitest';
import { HttpError } from './http-error';
import { refuseCrossSite } from './refuse-cross-site';

const URL_ = 'http://127.0.0.1:3000/api/runs';
const req = (headers: Record<string, string>) =>
  new Request(URL_, { method: 'POST', body: '{}', headers: { host: '127.0.0.1:3000', ...headers } });
const statusOf = (headers: Record<string, string>, accept?: string[]): number => {
  try {
    refuseCrossSite({ request: req(headers), ...(accept ? { accept } : {}) });
    return 0;
  } catch (error) {
    if (error instanceof HttpError) return error.status;
    throw error;
  }
};
const JSON_TYPE = { 'content-type': 'application/json' };

describe('refuseCrossSite', () => {
  it('lets the app’s own pages and non-browser clients through', () => {
    expect(statusOf({ ...JSON_TYPE })).toBe(0); // curl, the CLI, tests: no Origin, no Sec-Fetch-Site
    expect(statusOf({ ...JSON_TYPE, origin: 'http://127.0.0.1:3000', 'sec-fetch-site': 'same-origin' })).toBe(
      0,
    );
    expect(statusOf({ 'content-type': 'application/json; charset=utf-8', 'sec-fetch-site': 'none' })).toBe(0);
  });

  it('refuses another site with 403, whatever it claims about the content type', () => {
    expect(statusOf({ ...JSON_TYPE, origin: 'https://evil.example' })).toBe(403);
    expect(statusOf({ ...JSON_TYPE, origin: 'http://127.0.0.1:3001' })).toBe(403); // another port is another origin
    expect(statusOf({ ...JSON_TYPE, origin: 'null' })).toBe(403); // sandboxed iframes, file: pages
    expect(statusOf({ ...JSON_TYPE, 'sec-fetch-site': 'cross-site' })).toBe(403);
    expect(statusOf({ ...JSON_TYPE, 'sec-fetch-site': 'same-site' })).toBe(403);
    expect(
      statusOf({
        'content-type': 'text/plain',
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
      }),
    ).toBe(403);
  });

  it('refuses an Origin no browser sends, even when it names this server: userinfo, a path, a trailing dot, a default port', () => {
    for (const origin of [
      'http://evil@127.0.0.1:3000',
      'http://u:p@127.0.0.1:3000',
      'http://127.0.0.1:3000/',
      'http://127.0.0.1:3000/x',
      'HTTP://127.0.0.1:3000',
    ]) {
      expect(statusOf({ ...JSON_TYPE, origin }), origin).toBe(403);
    }
    expect(statusOf({ ...JSON_TYPE, origin: 'http://127.0.0.1.:3000', host: '127.0.0.1.:3000' })).toBe(403);
    expect(statusOf({ ...JSON_TYPE, origin: 'http://localhost.:3000', host: 'localhost.:3000' })).toBe(403);
    expect(statusOf({ ...JSON_TYPE, origin: 'http://localhost:3000', host: 'localhost:3000' })).toBe(0);
  });

  it('refuses CORS-simple and missing content types with 415 and says what to send', () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expect(statusOf({ 'content-type': type })).toBe(415);
    }
    expect(statusOf({})).toBe(415);
    expect(() => refuseCrossSite({ request: req({ 'content-type': 'text/plain' }) })).toThrow(
      /Unsupported Content-Type "text\/plain": send the body as application\/json/,
    );
    expect(
      statusOf({ 'content-type': 'application/x-ndjson' }, ['application/x-ndjson', 'application/json']),
    ).toBe(0);
  });

  it('says what happened and what to do in the 403', () => {
    expect(() => refuseCrossSite({ request: req({ ...JSON_TYPE, origin: 'https://evil.example' }) })).toThrow(
      /Origin https:\/\/evil\.example is not this server \(127\.0\.0\.1:3000\).*open the playground/,
    );
  });
});
