/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The layout holds its own shape where a reader relies on it: the unit tests mirror the source tree
 * (the tests of `nodes/X/y.ts` are in `test/unit/nodes/X/y.test.ts`; a module whose idea is tested
 * through the module that uses it needs no file of its own), every shipped module is reached from
 * what n8n loads (nothing dead), and no function in the shipped code is longer than a reader can
 * follow at once.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const SOURCE_FOLDERS = ['nodes', 'credentials'];
// Counted as Prettier lays code out (printWidth 100): about two screens.
const MAX_FUNCTION_LINES = 100;

function filesUnder(folder: string, ending: string): string[] {
	const found: string[] = [];
	for (const entry of readdirSync(join(ROOT, folder))) {
		const path = `${folder}/${entry}`;
		if (statSync(join(ROOT, path)).isDirectory()) found.push(...filesUnder(path, ending));
		else if (path.endsWith(ending)) found.push(path);
	}
	return found.sort();
}

const modules = SOURCE_FOLDERS.flatMap((folder) => filesUnder(folder, '.ts'));
const testFiles = SOURCE_FOLDERS.flatMap((folder) => filesUnder(`test/unit/${folder}`, '.test.ts'));

/** Every function with a body in a source text: its name (or kind) and its length in lines. */
export function functionLengths(
	path: string,
	text = readFileSync(join(ROOT, path), 'utf8'),
): Array<{ name: string; lines: number }> {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	const found: Array<{ name: string; lines: number }> = [];
	const visit = (node: ts.Node) => {
		if (ts.isFunctionLike(node) && 'body' in node && node.body) {
			const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
			const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
			const name =
				node.name && ts.isIdentifier(node.name) ? node.name.text : ts.SyntaxKind[node.kind];
			found.push({ name: `${path}:${start + 1} ${name}`, lines: end - start + 1 });
		}
		ts.forEachChild(node, visit);
	};
	visit(source);
	return found;
}

/** The repository paths of the relative modules `path` imports or re-exports. */
export function importedModules(
	path: string,
	text = readFileSync(join(ROOT, path), 'utf8'),
): string[] {
	const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
	return source.statements
		.flatMap((statement) =>
			(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
			statement.moduleSpecifier &&
			ts.isStringLiteral(statement.moduleSpecifier)
				? [statement.moduleSpecifier.text]
				: [],
		)
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => normalize(join(dirname(path), specifier)));
}

/** The modules n8n loads (package.json's `n8n` section) and every module they import, transitively. */
function reachedFromEntryPoints(): Set<string> {
	const { n8n } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const pending = [...n8n.nodes, ...n8n.credentials].map((built) =>
		built.replace(/^dist\//, '').replace(/\.js$/, '.ts'),
	);
	const reached = new Set<string>();
	while (pending.length > 0) {
		const module = pending.pop()!;
		if (reached.has(module)) continue;
		reached.add(module);
		pending.push(...importedModules(module));
	}
	return reached;
}

describe('the layout', () => {
	it('every test file under test/unit/nodes and test/unit/credentials mirrors a module that exists', () => {
		const orphans = testFiles.filter(
			(test) => !modules.includes(relative('test/unit', test).replace(/\.test\.ts$/, '.ts')),
		);
		expect(orphans).toEqual([]);
	});

	it('every shipped module is reached from a node or the credential (none is dead)', () => {
		const reached = reachedFromEntryPoints();
		expect(modules.filter((module) => !reached.has(module))).toEqual([]);
	});

	it('the import reader follows imports and re-exports, not packages', () => {
		const text = [
			"import type { X } from 'n8n-workflow';",
			"import { a } from './a.ts';",
			"export { b } from '../b/b.ts';",
			"export * from './c.ts';",
		].join('\n');
		expect(importedModules('nodes/N/x/y.ts', text)).toEqual([
			'nodes/N/x/a.ts',
			'nodes/N/b/b.ts',
			'nodes/N/x/c.ts',
		]);
	});

	it(`no function in the shipped code is longer than ${MAX_FUNCTION_LINES} lines`, () => {
		const long = modules.flatMap((module) =>
			functionLengths(module).filter((fn) => fn.lines > MAX_FUNCTION_LINES),
		);
		expect(long).toEqual([]);
	});

	it('the length check sees functions, methods and arrow functions (it would catch a long one)', () => {
		const body = Array.from({ length: MAX_FUNCTION_LINES }, (_, i) => `\tstep${i}();`).join('\n');
		const text = [
			`export function long() {\n${body}\n}`,
			`class C {\n\tmethod() {\n${body}\n\t}\n}`,
			`const arrow = () => {\n${body}\n};`,
		].join('\n');
		expect(
			functionLengths('nodes/x.ts', text).map((fn) => [fn.name.split(' ')[1], fn.lines]),
		).toEqual([
			['long', MAX_FUNCTION_LINES + 2],
			['method', MAX_FUNCTION_LINES + 2],
			['ArrowFunction', MAX_FUNCTION_LINES + 2],
		]);
	});
});
