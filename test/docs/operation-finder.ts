import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { ROOT } from '../support/run-command';

/** One row of the README's operation finder: `GET …/path` → `Controller.handler` (→ `UseCase.method`) → `Repository.method`, … */
export interface FinderRow {
  method: string;
  /** The path as the README writes it, `…` standing for the part left out at its start. */
  path: string;
  handler: string;
  /** The use case a write's handler hands it to (`UpdateConnector.execute`), or undefined for a cell left empty. */
  useCase?: string;
  queries: string[];
}

const cellsOf = (line: string): string[] =>
  line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());

/** The rows of the README table whose header names the handler, the use case and the queries (each column found by its header's first word). */
export function finderRows(readme: string): FinderRow[] {
  const lines = readme.split('\n');
  const header = lines.findIndex((line) => /^\|\s*operation\s*\|\s*handler\b/.test(line));
  if (header < 0) throw new Error('README has no operation finder table');
  const columns = cellsOf(lines[header]);
  const column = (word: string): number => {
    const index = columns.findIndex((name) => name.startsWith(word));
    if (index < 0) throw new Error(`README's operation finder has no column "${word}"`);
    return index;
  };
  const [operationAt, handlerAt, useCaseAt, queriesAt] = ['operation', 'handler', 'use case', 'queries'].map(column);
  const rows: FinderRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = cellsOf(line);
    const [method, path] = cells[operationAt].replace(/`/g, '').split(/\s+/);
    const useCase = cells[useCaseAt].replace(/`/g, '') || undefined;
    const queries = [...cells[queriesAt].matchAll(/`([^`]+)`/g)].map(([, name]) => name);
    rows.push({ method, path, handler: cells[handlerAt].replace(/`/g, ''), useCase, queries });
  }
  return rows;
}

/** The OpenAPI operations whose method is `method` and whose path ends as the finder's does. */
export function openApiOperations(method: string, path: string): Array<{ path: string; operationId: string }> {
  const tail = path.replace(/^…/, '');
  return execFileSync('git', ['ls-files', 'docs/openapi/*.json'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .flatMap((file) => {
      const document = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as { paths: Record<string, Record<string, { operationId: string }>> };
      return Object.entries(document.paths)
        .filter(([documented]) => (path.startsWith('…') ? documented.endsWith(tail) : documented === path))
        .flatMap(([documented, operations]) => {
          const operation = operations[method.toLowerCase()];
          return operation ? [{ path: documented, operationId: operation.operationId }] : [];
        });
    });
}

interface ClassInfo {
  /** The file it is declared in, from the repository's root. */
  file: string;
  /** Method name → its body. */
  methods: Map<string, ts.Node>;
  /** Field name (a constructor's parameter property or a declared property) → the class name of its type. */
  fields: Map<string, string>;
}

/** Every class of the production sources (apps/, libs/), by name. */
export function productionClasses(): Map<string, ClassInfo> {
  const files = execFileSync('git', ['ls-files', 'apps/**/*.ts', 'libs/**/*.ts'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.spec.ts'));
  const classes = new Map<string, ClassInfo>();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) classes.set(node.name.text, classInfo(file, node));
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return classes;
}

function classInfo(file: string, node: ts.ClassDeclaration): ClassInfo {
  const methods = new Map<string, ts.Node>();
  const fields = new Map<string, string>();
  const typeName = (type: ts.TypeNode | undefined) => (type && ts.isTypeReferenceNode(type) ? type.typeName.getText() : undefined);
  for (const member of node.members) {
    if (ts.isMethodDeclaration(member) && member.body) methods.set(member.name.getText(), member.body);
    if (ts.isPropertyDeclaration(member)) {
      const type = typeName(member.type);
      if (type) fields.set(member.name.getText(), type);
      // An arrow function held in a property is a method too.
      if (member.initializer && ts.isArrowFunction(member.initializer)) methods.set(member.name.getText(), member.initializer.body);
    }
    if (ts.isConstructorDeclaration(member)) {
      for (const parameter of member.parameters) {
        const type = typeName(parameter.type);
        if (type && ts.getModifiers(parameter)?.length) fields.set(parameter.name.getText(), type);
      }
    }
  }
  return { file, methods, fields };
}

/**
 * Every `Class.method` a method reaches through calls on `this` (`this.method(…)`, `this.field.method(…)`, the field
 * typed by a class of the sources), however deep.
 */
export function reachedFrom(classes: Map<string, ClassInfo>, start: string): Set<string> {
  const reached = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const name = pending.pop() as string;
    if (reached.has(name)) continue;
    reached.add(name);
    const [className, methodName] = name.split('.');
    const info = classes.get(className);
    const body = info?.methods.get(methodName);
    if (!info || !body) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
        const { expression: target, name: called } = node.expression;
        if (target.kind === ts.SyntaxKind.ThisKeyword) pending.push(`${className}.${called.text}`);
        if (ts.isPropertyAccessExpression(target) && target.expression.kind === ts.SyntaxKind.ThisKeyword) {
          const fieldType = info.fields.get(target.name.text);
          if (fieldType && classes.has(fieldType)) pending.push(`${fieldType}.${called.text}`);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(body);
  }
  return reached;
}
