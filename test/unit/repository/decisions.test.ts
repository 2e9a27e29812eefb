/* eslint-disable @n8n/community-nodes/no-restricted-imports -- test tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- asks git which files the repository holds */
/**
 * References to the decisions resolve: every `spec-decisions.md#<anchor>` link, in the documents and
 * in code comments, names an anchor of docs/spec-decisions.md, and so does every decision a comment,
 * a test name or a document names by number (`N12`, `D4`). Code and tests name decisions, never an
 * issue or a pull request (`#32`), whose numbers mean nothing to the next reader.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { ROOT } from './documents.ts';

const DECISIONS = 'docs/spec-decisions.md';

/** The anchors of the decisions log: `<a id="n12"></a>` before each heading. */
function decisionAnchors(markdown: string): Set<string> {
	return new Set([...markdown.matchAll(/<a id="([^"]+)">/g)].map((match) => match[1]));
}

/** The decisions a text points at, as anchors: links `spec-decisions.md#n12` and names `N12`, `D4`. */
export function decisionReferences(text: string): string[] {
	const links = [...text.matchAll(/spec-decisions\.md#([\w-]+)/g)].map((match) => match[1]);
	const names = [...text.matchAll(/(?<![\w./#-])([ND]\d{1,3})\b(?!-)/g)].map((match) =>
		match[1].toLowerCase(),
	);
	return [...links, ...names];
}

/** Issue and pull-request numbers: `#32`, `issue 32`, `PR #7` (not `&#39;`). */
export function issueNumbers(text: string): string[] {
	return [...text.matchAll(/(?<![&\w])#\d+\b|\b(?:issue|pull request|PR)\s*#?\d+/gi)].map(
		(match) => match[0],
	);
}

/** The files git holds or would add (tracked, and untracked ones it does not ignore). */
const repositoryFiles = execFileSync(
	'git',
	['ls-files', '--cached', '--others', '--exclude-standard'],
	{ cwd: ROOT, encoding: 'utf8' },
)
	.split('\n')
	.filter((path) => path && existsSync(join(ROOT, path)));

const CODE_FOLDERS = /^(nodes|credentials|test|local-n8n|sandbox|scripts|bench)\//;
/** This file: its samples show what the readers find. */
const SELF = 'test/unit/repository/decisions.test.ts';
const code = repositoryFiles.filter(
	(path) => CODE_FOLDERS.test(path) && path.endsWith('.ts') && path !== SELF,
);
const citing = [
	...code,
	...repositoryFiles.filter((path) => /\.(md|json|ya?ml)$/.test(path) && path !== DECISIONS),
];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('references to the decisions', () => {
	it('the readers find links and names, and issue numbers, but not character references', () => {
		const text =
			'// see docs/spec-decisions.md#n44 (N44, D4); N8N_PORT, node-N2, x.D3 and &#39; are not;\n' +
			"it('retried (N2)', …) // issue #32, PR 7, #12";
		expect(decisionReferences(text)).toEqual(['n44', 'n44', 'd4', 'n2']);
		expect(issueNumbers(text)).toEqual(['issue #32', 'PR 7', '#12']);
	});

	it('the check knows a missing anchor', () => {
		const anchors = decisionAnchors('<a id="n1"></a>\n### N1. x\n');
		expect(decisionReferences('N1, spec-decisions.md#n2').filter((a) => !anchors.has(a))).toEqual([
			'n2',
		]);
	});

	it('every decision a document or a code comment links to or names has its entry', () => {
		const anchors = decisionAnchors(read(DECISIONS));
		const unresolved = citing.flatMap((path) =>
			decisionReferences(read(path))
				.filter((anchor) => !anchors.has(anchor))
				.map((anchor) => `${path}: ${anchor}`),
		);
		expect([...new Set(unresolved)]).toEqual([]);
	});

	it('no code or test names an issue or pull-request number', () => {
		const found = code.flatMap((path) =>
			issueNumbers(read(path)).map((number) => `${path}: ${number}`),
		);
		expect(found).toEqual([]);
	});
});
