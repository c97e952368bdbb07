import { envVariableName, environmentPlaceholder, isEnvironmentReference } from './variables';

describe(envVariableName.name, () => {
  it.each([
    ['host', 'host'],
    ['pci-host', 'pci-host'],
    ['base url', 'base_url'],
    ['$host', 'host'],
    ['1st', '_1st'],
    ['env.BASE_URL', 'BASE_URL'],
    ['x'.repeat(70), 'x'.repeat(60)],
    ['ünïcode', '_n_code'],
  ])('makes the Postman variable %j the environment variable %j (ENV_VARIABLE_NAME)', (postman, name) => {
    expect(envVariableName(postman)).toBe(name);
    expect(environmentPlaceholder(postman)).toBe(`env.${name}`);
  });

  it('tells an exported {{env.NAME}} from a Postman name that only starts like one', () => {
    expect(isEnvironmentReference('env.BASE_URL')).toBe(true);
    expect(isEnvironmentReference('env.')).toBe(false);
    expect(isEnvironmentReference('env.base url')).toBe(false);
    expect(isEnvironmentReference('environment')).toBe(false);
  });
});
