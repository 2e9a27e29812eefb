/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/**
 * Every Markdown table in the repository's documents renders as written: each row has as many cells as
 * its header (GitHub and npmjs.com split cells at every pipe not escaped with a backslash, inside code
 * spans too, and move the extra text of a short row into the wrong column).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { DOCUMENTS, ROOT } from './documents.ts';

/** The cells of a table row, as GitHub splits them. */
function cells(row: string): string[] {
	const inner = row
		.trim()
		.replace(/^\|/, '')
		.replace(/(?<!\\)\|$/, '');
	return inner.split(/(?<!\\)\|/);
}

/** Rows whose cell count differs from their table's header, as "file:line (n cells, header m)". */
function misshapenRows(file: string, text: string): string[] {
	const lines = text.split('\n');
	const problems: string[] = [];
	for (let index = 0; index + 1 < lines.length; index++) {
		if (!/^\s*\|/.test(lines[index]) || !/^\s*\|?\s*:?-{3,}/.test(lines[index + 1])) continue;
		const width = cells(lines[index]).length;
		let row = index + 2;
		for (; row < lines.length && /^\s*\|/.test(lines[row]); row++) {
			const count = cells(lines[row]).length;
			if (count !== width) problems.push(`${file}:${row + 1} (${count} cells, header ${width})`);
		}
		index = row - 1;
	}
	return problems;
}

describe('Markdown tables', () => {
	it('the check sees a row with a missing cell separator', () => {
		expect(misshapenRows('x.md', '| a | b |\n|---|---|\n| [link](u) text |\n| c | d |\n')).toEqual([
			'x.md:3 (1 cells, header 2)',
		]);
		expect(cells('| `a\\|b` | c |')).toEqual([' `a\\|b` ', ' c ']);
	});

	it.each(DOCUMENTS)('%s: every row has as many cells as its header', (file) => {
		expect(misshapenRows(file, readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
	});
});
