import { envNamesIn, envVariableOf, ENV_VARIABLE_NAME, withEnvironment } from './env-placeholders';

describe('env placeholders', () => {
  it('names the connector variables a text refers to, once each, in order; not the caller variables nor escaped ones', () => {
    expect(envNamesIn('{{env.SCHEME}}://{{ env.HOST }}:{{env.PORT}}/{{id}}?k={{env.HOST}}&l=\\{{env.LITERAL}}')).toEqual(['SCHEME', 'HOST', 'PORT']);
    expect(envNamesIn(null)).toEqual([]);
    expect(envNamesIn('{{environment.X}} {{env}} {{envX}}')).toEqual([]);
  });

  it('tells an environment name from a caller variable', () => {
    expect(envVariableOf('env.BASE_URL')).toBe('BASE_URL');
    expect(envVariableOf('BASE_URL')).toBeNull();
    expect(envVariableOf('environment')).toBeNull();
  });

  it('fills the environment variables it has and leaves every other placeholder as written', () => {
    const values = new Map([
      ['HOST', 'api.example.com'],
      ['Q', 'a b'],
    ]);
    expect(withEnvironment('https://{{env.HOST}}/{{id}}?q={{env.Q}}&m={{env.MISSING}}', (name) => values.get(name), encodeURIComponent)).toBe(
      'https://api.example.com/{{id}}?q=a%20b&m={{env.MISSING}}',
    );
    expect(withEnvironment('\\{{env.HOST}}', (name) => values.get(name))).toBe('\\{{env.HOST}}');
  });

  it('keeps names to what a placeholder can hold with env. before them', () => {
    expect(ENV_VARIABLE_NAME.test('BASE_URL')).toBe(true);
    expect(ENV_VARIABLE_NAME.test('a'.repeat(60))).toBe(true);
    expect(ENV_VARIABLE_NAME.test('a'.repeat(61))).toBe(false);
    expect(ENV_VARIABLE_NAME.test('1X')).toBe(false);
    expect(ENV_VARIABLE_NAME.test('has space')).toBe(false);
  });
});
