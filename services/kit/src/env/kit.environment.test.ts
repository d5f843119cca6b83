import { InvalidEnvironmentError } from './environment';
import { DEFAULT_SERVICE_VERSION, infraEnvironment } from './kit.environment';

describe('SERVICE_VERSION', () => {
  it('defaults to the package version and takes a semantic version', () => {
    expect(infraEnvironment.parse({}).SERVICE_VERSION).toBe(DEFAULT_SERVICE_VERSION);
    expect(infraEnvironment.parse({ SERVICE_VERSION: '1.4.0-rc.1+build.7' }).SERVICE_VERSION).toBe('1.4.0-rc.1+build.7');
  });

  it('stops the process on anything else, naming the variable (nats micro would reject the answers)', () => {
    expect(() => infraEnvironment.parse({ SERVICE_VERSION: 'v1' })).toThrow(InvalidEnvironmentError);
    expect(() => infraEnvironment.parse({ SERVICE_VERSION: '1.4' })).toThrow(/SERVICE_VERSION.*semantic version/);
  });
});
