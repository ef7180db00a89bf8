// Settings that would break requests at run time are refused at boot (exit code 78 in main.ts).
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('takes PRIVACY_POLICY_VERSION up to the 50 characters its column holds, v1.0 by default', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).newsletter.privacyPolicyVersion).toBe('v1.0');
    const fifty = 'v'.repeat(50);
    expect(loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: fifty }).newsletter.privacyPolicyVersion).toBe(fifty);
    expect(() => loadConfig({ NODE_ENV: 'test', PRIVACY_POLICY_VERSION: `${fifty}1` })).toThrow(ConfigError);
  });
});
