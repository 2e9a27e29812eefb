/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/**
 * The layout holds its own shape: the unit tests mirror the source tree (the tests of `nodes/X/y.ts`
 * are `test/unit/nodes/X/y.test.ts`, one file per module, none for a module that is gone), and no
 * function in the shipped code grows past a page, so an operation reads as its flow.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..', '..');
const SOURCE_FOLDERS = ['nodes', 'credentials'];
// Counted as Prettier lays code out (printWidth 100), which wraps what used to fit on one line.
const MAX_FUNCTION_LINES = 80;

/** Modules that only declare (UI descriptions, names): nothing in them runs, so nothing to test on its own. */
const DECLARATIONS_ONLY = new Set([
	'nodes/DocumentExtraction/actions/document/Document.resource.ts',
	'nodes/DocumentExtraction/actions/webhook/Webhook.resource.ts',
	'nodes/DocumentExtraction/constants.ts',
	'nodes/DocumentExtraction/invoice/outputMode.description.ts',
]);

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

/** Every function with a body in `path`: its name (or kind) and its length in lines. */
export function functionLengths(path: string): Array<{ name: string; lines: number }> {
	const text = readFileSync(join(ROOT, path), 'utf8');
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

describe('the layout', () => {
	it('every module has its test file at the mirrored path', () => {
		const untested = modules.filter(
			(module) =>
				!DECLARATIONS_ONLY.has(module) &&
				!testFiles.includes(`test/unit/${module.replace(/\.ts$/, '.test.ts')}`),
		);
		expect(untested).toEqual([]);
	});

	it('every mirrored test file belongs to a module that exists', () => {
		const orphans = testFiles.filter(
			(test) => !modules.includes(relative('test/unit', test).replace(/\.test\.ts$/, '.ts')),
		);
		expect(orphans).toEqual([]);
	});

	it(`no function in the shipped code is longer than ${MAX_FUNCTION_LINES} lines`, () => {
		const long = modules.flatMap(functionLengths).filter((fn) => fn.lines > MAX_FUNCTION_LINES);
		expect(long).toEqual([]);
	});

	it('the length check sees functions (it would catch a long one)', () => {
		const lengths = functionLengths(
			'nodes/DocumentExtraction/actions/document/extract/parallelUploads.ts',
		);
		expect(lengths.find((fn) => fn.name.endsWith(' extractInParallel'))?.lines).toBeGreaterThan(30);
	});
});
