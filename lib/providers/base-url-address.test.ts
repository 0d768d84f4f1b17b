import { describe, expect, it } from 'vitest';
import { addressKindOf } from './base-url-address';
import { ProviderConfigError, resolveClientConfig } from './client-config';

const hostOf = (url: string) => new URL(url).hostname;

describe('addressKindOf', () => {
  it('knows cloud metadata, link-local, loopback and private addresses however they are written', () => {
    expect(addressKindOf(hostOf('http://169.254.169.254/latest'))).toBe('metadata');
    expect(addressKindOf(hostOf('http://metadata.google.internal/'))).toBe('metadata');
    expect(addressKindOf(hostOf('http://[fd00:ec2::254]/'))).toBe('metadata');
    expect(addressKindOf(hostOf('http://100.100.100.200/'))).toBe('metadata');
    expect(addressKindOf(hostOf('http://169.254.1.1/'))).toBe('link-local');
    expect(addressKindOf(hostOf('http://[fe80::1]/'))).toBe('link-local');
    for (const url of [
      'http://127.0.0.1:3000',
      'http://localhost:11434',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://0.0.0.0:3000',
      'http://[::1]:3000',
      'http://[::ffff:127.0.0.1]/',
      'http://app.localhost/',
    ]) {
      expect(addressKindOf(hostOf(url)), url).toBe('loopback');
    }
    for (const url of [
      'http://10.0.0.5',
      'http://172.16.0.1',
      'http://192.168.1.20:8080',
      'http://[fd12::1]/',
      'http://printer.local/',
      'http://intranet/',
      'http://[::ffff:10.0.0.1]/',
    ]) {
      expect(addressKindOf(hostOf(url)), url).toBe('private');
    }
    for (const url of [
      'https://api.deepseek.com',
      'http://8.8.8.8',
      'http://172.32.0.1',
      'http://[2606:4700::1111]/',
    ])
      expect(addressKindOf(hostOf(url)), url).toBeUndefined();
  });
});

describe('a base URL chosen by a run request', () => {
  const chosen =
    (baseUrl: string, env: Record<string, string> = {}) =>
    () =>
      resolveClientConfig({ vendor: 'openai-compatible', baseUrl, apiKey: 'sk-request', env });

  it('may never be a metadata service or link-local, even with its own key', () => {
    expect(chosen('http://169.254.169.254/v1')).toThrow(ProviderConfigError);
    expect(chosen('http://169.254.169.254/v1')).toThrow(
      /cloud metadata service: a run request may never point the server there/,
    );
    expect(chosen('http://[fe80::1]:8080/v1', { LOOP_LAB_ALLOWED_REQUEST_HOSTS: '[fe80::1]:8080' })).toThrow(
      /link-local/,
    );
  });

  it('may be this machine or a private network only when the environment names it, and the error says which setting', () => {
    const ollama = chosen('http://localhost:11434/v1');
    expect(ollama).toThrow(/loopback address \(this machine\)/);
    expect(ollama).toThrow(/LOOP_LAB_ALLOWED_BASE_URLS=http:\/\/localhost:11434\/v1 \(or OPENAI_BASE_URL\)/);
    expect(ollama).toThrow(/LOOP_LAB_ALLOWED_REQUEST_HOSTS=localhost:11434/);
    expect(chosen('http://127.0.0.1:3000/api/runs')).toThrow(/loopback/); // Loop Lab itself
    expect(chosen('http://192.168.1.20:8080/v1')).toThrow(/private-network address/);
    expect(
      chosen('http://localhost:11434/v1', { LOOP_LAB_ALLOWED_REQUEST_HOSTS: 'localhost:11434' })(),
    ).toMatchObject({
      keyFrom: 'request',
      baseURL: 'http://localhost:11434/v1',
    });
    expect(chosen('http://localhost:9999/v1', { LOOP_LAB_ALLOWED_REQUEST_HOSTS: 'localhost:11434' })).toThrow(
      /loopback/,
    );
    expect(
      chosen('http://localhost:11434/v1', { LOOP_LAB_ALLOWED_BASE_URLS: 'http://localhost:11434/v1' })(),
    ).toMatchObject({ keyFrom: 'request' });
    expect(
      chosen('http://localhost:11434/v1', { OPENAI_BASE_URL: 'http://localhost:11434/v1' })(),
    ).toMatchObject({ keyFrom: 'request' });
    expect(chosen('https://api.together.xyz/v1')()).toMatchObject({
      keyFrom: 'request',
      baseURL: 'https://api.together.xyz/v1',
    });
  });
});
