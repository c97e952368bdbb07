import { ConnectorTagDto } from '@app/domain';
import { ExportedConnector, ImportSourceError } from '../connector-draft';
import { outputFrom, tagsFrom } from '../connector-extras';
import { CommentLine } from './curl-commands';
import { shellQuoted } from './posix-quote';
import { CONNECTOR_COMMENT, isConnectorComment, tokenizeShell } from './shell-words';

/**
 * What a command cannot say of a connector (its name, description, output and tags) and how its shell variables
 * name the connector's variables, on a comment line above the command that the shell ignores and importCurl reads:
 *
 *   # connector: --name 'Create user' --description 'Adds one' --output '$.id' --tag crm --tag users --variable user_id=user.id
 *
 * `--variable SHELL=NAME` only for a variable whose shell name is not its own (shellVariablesOf). Its presence also
 * says that the command is an export, in which every variable is a shell variable: literal `{{name}}` text in it is
 * text (shell-words.ts reads it as `\{{name}}`).
 */

export interface ConnectorComment {
  name?: string;
  description?: string;
  output?: string;
  tags: ConnectorTagDto[];
  tagsLeft: number;
  /** Shell variable name to connector variable name. */
  variables: Map<string, string>;
  line: number;
}

const FLAGS = new Set(['--name', '--description', '--output', '--tag', '--variable']);

/** The comment line for `connector`, whose variables have the shell names `variables` gives. */
export function connectorComment(connector: ExportedConnector, variables: Map<string, string>): string {
  const parts = [`--name ${shellQuoted(connector.name)}`];
  if (connector.description !== null) parts.push(`--description ${shellQuoted(connector.description)}`);
  if (connector.output !== '') parts.push(`--output ${shellQuoted(connector.output)}`);
  parts.push(...connector.tags.map(({ name }) => `--tag ${shellQuoted(name)}`));
  for (const [name, shell] of variables) if (name !== shell) parts.push(`--variable ${shellQuoted(`${shell}=${name}`)}`);
  return `# ${CONNECTOR_COMMENT} ${parts.join(' ')}`;
}

/** What the last `# connector:` line above a command says, or undefined. */
export function readConnectorComment(comments: CommentLine[]): ConnectorComment | undefined {
  const comment = comments.filter(({ text }) => isConnectorComment(text)).pop();
  if (!comment) return undefined;
  const where = `line ${comment.line}`;
  const words = tokenizeShell(comment.text.trimStart().slice(CONNECTOR_COMMENT.length)).flatMap((token) => (token.kind === 'word' ? [token.word.text] : []));
  const read: Omit<ConnectorComment, 'tags' | 'tagsLeft'> & { tags: string[] } = { tags: [], variables: new Map(), line: comment.line };
  for (let index = 0; index < words.length; index += 2) {
    const [flag, value] = [words[index], words[index + 1]];
    if (!FLAGS.has(flag) || value === undefined) throw new ImportSourceError(where, `${CONNECTOR_COMMENT} takes ${[...FLAGS].join(', ')}, each with a value`);
    if (flag === '--name') read.name = value;
    else if (flag === '--description') read.description = value;
    else if (flag === '--output') read.output = outputFrom(value);
    else if (flag === '--tag') read.tags.push(value);
    else {
      const [shell, name] = [value.slice(0, value.indexOf('=')), value.slice(value.indexOf('=') + 1)];
      if (!value.includes('=') || shell === '' || name === '') throw new ImportSourceError(where, '--variable takes SHELL_NAME=connectorName');
      read.variables.set(shell, name);
    }
  }
  const { tags, left } = tagsFrom(read.tags);
  return { ...read, tags, tagsLeft: left };
}
