import { describe, expect, it } from 'vitest';
import { importMswWith, loadMsw } from '../../../../src/testing/serve/msw';

// The packed-tarball check (scripts/check-pack.mjs) runs the real thing in a project without msw;
// these pin down what each loader says when msw is missing or broken.
const notFound = (code: string) => Object.assign(new Error("Cannot find module 'msw'"), { code });

describe('loading msw for mock.handlers', () => {
  it('says to install msw when require cannot find it', () => {
    const load = () => {
      throw notFound('MODULE_NOT_FOUND');
    };
    expect(() => loadMsw(load)).toThrow(/needs the optional peer dependency msw/);
  });

  it('passes on any other failure to require msw as it is', () => {
    const broken = new SyntaxError('msw is broken');
    const load = () => {
      throw broken;
    };
    expect(() => loadMsw(load)).toThrow(broken);
  });

  it('answers undefined where there is no synchronous loader (a browser bundle)', () => {
    expect(loadMsw(undefined)).toBeUndefined();
  });

  it('says to install msw when the dynamic import cannot find it', async () => {
    await expect(
      importMswWith(() => Promise.reject(notFound('ERR_MODULE_NOT_FOUND'))),
    ).rejects.toThrow(/needs the optional peer dependency msw/);
  });

  it('passes on any other failure to import msw as it is', async () => {
    const broken = new SyntaxError('msw is broken');
    await expect(importMswWith(() => Promise.reject(broken))).rejects.toBe(broken);
  });
});
