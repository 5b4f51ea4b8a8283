/** Node built-ins looked up at run time, with no static import. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinModule } from '../../src/core/builtin.js';

describe('builtinModule', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('finds a built-in where the runtime offers getBuiltinModule', () => {
    const crypto = builtinModule<{ createHmac: unknown }>('node:crypto');
    expect(typeof crypto?.createHmac).toBe('function');
    expect(builtinModule('node:no-such-module')).toBeUndefined();
  });

  it('is undefined where there is no process, or no getBuiltinModule', () => {
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    expect(builtinModule('node:crypto')).toBeUndefined();
    vi.stubGlobal('process', undefined);
    expect(builtinModule('node:http')).toBeUndefined();
  });
});
