/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
// A canvas that reads: every template opened in n8n's editor shows each sticky note's
// text whole, each node and its name apart from the others, the flow from left to right in
// coloured sections that each fit a screen at a zoom where the names can be read, and no wire
// drawn across a node or a note. Pure: the canvas is estimated from the JSON (canvas.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import {
	drawnNodes,
	drawnNotes,
	inside,
	LABEL_MAX_LINES,
	NODE_SIZE,
	noteTextHeight,
	overlap,
	wirePoints,
	wiresOf,
	type Box,
	type Template,
	type Wire,
} from './canvas.ts';

const EXAMPLES = join(__dirname, '..', '..', '..', 'examples');

/** n8n's editor snaps every position to its 16 px grid: positions on it are drawn where they say. */
const GRID = 16;
/** A column of nodes: 14 grid squares, room for a node, its name and its outputs' names. */
const COLUMN = 14 * GRID;
/** A wire spans at most three columns: its two ends are on one screen at a legible zoom. */
const MAX_WIRE = 3 * COLUMN;
/** The screen the issue reads the canvas on, and a zoom at which n8n's node names can be read. */
const VIEWPORT = { width: 1600, height: 1000 };
const LEGIBLE_ZOOM = 0.6;
/** From this many nodes a template no longer fits one screen: every node is in a section note. */
const SECTIONS_FROM = 15;
/** A wire passing closer than this to a node looks as if it goes into it. */
const WIRE_CLEARANCE = 4;

/**
 * Wires that go back to the left on purpose: the loop over the email's attachments returns to
 * Loop Over Items for the next one, and an invoice whose supplier is being asked about by another
 * execution reads the supplier's rule again after a wait (n8n draws them below the nodes).
 */
const LOOP_BACKS: Record<string, string[]> = {
	'invoices-email-to-xero-with-approval.workflow.json': [
		'Start its own execution → One at a time',
		'First to ask? → Wait for the answer',
		'Wait for the answer → Supplier rule',
		'Wait for the answer → Account known?',
		// The approval is a loop: each form's answer goes back to Next approval step.
		'Ask approver → Next approval step',
		// A call Xero refused with 429 is made again once Xero's wait is over, or tried a last time.
		'Wait as Xero asks → Xero refused',
		'Xero refused → Record decision in Xero',
		'Xero refused → Attach original in Xero',
		'Xero refused → Create bill in Xero',
		'Xero refused → Find bill in Xero',
		'Xero refused → Find bill in Xero, last try',
		// A bill Xero refused otherwise than for its account is tried a last time.
		'Judge the new bill → Create bill in Xero, last try',
		// A note Xero refused otherwise: the original goes on as before.
		'Xero refused → Original to attach?',
		// A refused create is judged: an account Xero refused asks for the account again.
		'Xero refused → Judge the new bill',
		'Judge the new bill → Next approval step',
		'Record the refusal → Accounts in Xero',
	],
	'invoices-email-to-quickbooks-with-approval.workflow.json': [
		'Start its own execution → One at a time',
		// An invoice whose supplier another execution asks about reads the rule again after a wait.
		'Wait for the answer → Supplier rule',
		'Wait for the answer → Account known?',
		// Each answer goes back to the policy for the next step.
		'Ask approver → Next approval step',
		// The vendor created is judged as the one found; a vendor QuickBooks refused to create
		// (another execution made it) is looked up again.
		'Create vendor → Judge the vendor',
		'Create vendor → Find vendor',
		// A bill QuickBooks refused otherwise than for its account is tried a last time.
		'Judge the new bill → Create bill in QuickBooks, last try',
		// An account QuickBooks refused: the supplier is asked for the account again.
		'Judge the new bill → Next approval step',
		'Record the refusal → Accounts in QuickBooks',
	],
};
/**
 * The node that records how every invoice ended (in the register; Outcome before it saves it on the
 * execution). The
 * outcomes wired into them sit together just left of them, so an outcome of the first step and
 * one of the last are both near: the wire into an outcome may be long, the wire out of it is short.
 */
const RECORDERS = ['Register the invoice'];
/**
 * Wires long by design, each with its reason: an item that goes round a part of the flow to meet
 * it again at a Merge, or to skip it.
 */
const LONG_WIRES: Record<string, string[]> = {
	'invoice-approval-by-manager.workflow.json': ['Answered? → Approved?'],
	// Without an original to attach, the bill is posted as it is.
	'invoice-to-quickbooks.workflow.json': ['Original to attach? → Posted to QuickBooks'],
	'invoices-email-to-xero-with-approval.workflow.json': [
		// A supplier with a rule goes round the question about its account.
		'Account known? → Next approval step',
		// A reminder, or the form again: the same person's form, past the approver's emails.
		'Approval route → Ask approver',
		// Every call's refusal goes to the one switch for Xero's refusals, right of the last call.
		'Find bill in Xero → Xero refused',
		'Create bill in Xero → Xero refused',
	],
	'invoices-email-to-quickbooks-with-approval.workflow.json': [
		// A supplier with a rule goes round the question about its account.
		'Account known? → Next approval step',
	],
};

const templates = readdirSync(EXAMPLES)
	.filter((file) => file.endsWith('.workflow.json'))
	.sort()
	.map((file) => ({
		file,
		template: JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8')) as Template,
	}));

const named = (wire: Wire) => `${wire.from} → ${wire.to}`;
const isLoopBack = (file: string, wire: Wire) => (LOOP_BACKS[file] ?? []).includes(named(wire));
const within = (point: [number, number], box: Box, margin: number) =>
	point[0] > box.x - margin &&
	point[0] < box.right + margin &&
	point[1] > box.y - margin &&
	point[1] < box.bottom + margin;

/** What the editor draws where nothing else may be: a node, its name, its outputs' names. */
function occupied(template: Template) {
	return [...drawnNodes(template).values()].map((drawn) => ({
		name: drawn.node.name,
		whole: [drawn.body, drawn.label].filter((box): box is Box => box !== null),
		...drawn,
	}));
}

/** Notes whose text a node or a node's name covers. */
function coveredNoteTexts(template: Template): string[] {
	return drawnNotes(template).flatMap((note) =>
		occupied(template)
			.filter((node) => node.whole.some((box) => overlap(box, note.text)))
			.map((node) => `"${note.node.name}": its text is under "${node.name}"`),
	);
}

/** Nodes drawn on each other: a body on a body, a name or an output's name. */
function nodesOnNodes(template: Template): string[] {
	const nodes = occupied(template);
	return nodes.flatMap((a, i) =>
		nodes.slice(i + 1).flatMap((b) => {
			const clash =
				overlap(a.body, b.body) ||
				[b.label, b.outputNames].some((box) => box !== null && overlap(a.body, box)) ||
				[a.label, a.outputNames].some((box) => box !== null && overlap(b.body, box)) ||
				(a.label !== null && b.label !== null && overlap(a.label, b.label));
			return clash ? [`"${a.name}" and "${b.name}"`] : [];
		}),
	);
}

/** Notes a node straddles (neither inside nor clear of it), and notes on notes. */
function notesNotWhole(template: Template): string[] {
	const notes = drawnNotes(template);
	const straddled = notes.flatMap((note) =>
		occupied(template)
			.filter(
				(node) =>
					node.whole.some((box) => overlap(box, note.box)) &&
					!node.whole.every((box) => inside(box, note.box)),
			)
			.map((node) => `"${node.name}" half on "${note.node.name}"`),
	);
	const stacked = notes.flatMap((a, i) =>
		notes
			.slice(i + 1)
			.filter((b) => overlap(a.box, b.box))
			.map((b) => `"${a.node.name}" on "${b.node.name}"`),
	);
	return [...straddled, ...stacked];
}

/** For a template of many nodes: nodes outside every section, and sections without colour or too big. */
function sectionsOf(template: Template): string[] {
	const nodes = occupied(template);
	if (nodes.length < SECTIONS_FROM) return [];
	const notes = drawnNotes(template);
	const sections = notes.filter((note) =>
		nodes.some((node) => node.whole.every((box) => inside(box, note.box))),
	);
	const outside = nodes
		.filter((node) => !sections.some((note) => node.whole.every((box) => inside(box, note.box))))
		.map((node) => `"${node.name}" is in no section`);
	const uncoloured = sections
		.filter((note) => !(Number(note.color) >= 1 && Number(note.color) <= 7))
		.map((note) => `"${note.node.name}" has no colour`);
	const tooBig = sections
		.filter(
			(note) =>
				(note.box.right - note.box.x) * LEGIBLE_ZOOM > VIEWPORT.width ||
				(note.box.bottom - note.box.y) * LEGIBLE_ZOOM > VIEWPORT.height,
		)
		.map((note) => `"${note.node.name}" does not fit the screen at ${LEGIBLE_ZOOM}`);
	return [...outside, ...uncoloured, ...tooBig];
}

/** Main wires that go back to the left (undeclared), and sub-nodes not below their node. */
function backwardWires(file: string, template: Template): string[] {
	const position = new Map(template.nodes.map((node) => [node.name, node.position]));
	return wiresOf(template)
		.filter((wire) => !isLoopBack(file, wire))
		.filter((wire) => {
			const [from, to] = [position.get(wire.from)!, position.get(wire.to)!];
			return wire.type === 'main' ? to[0] < from[0] + NODE_SIZE : from[1] <= to[1];
		})
		.map(named);
}

/** The nodes wired into a recorder: how an invoice ended. */
const outcomesOf = (template: Template) =>
	new Set(
		wiresOf(template)
			.filter((wire) => RECORDERS.includes(wire.to))
			.map((wire) => wire.from),
	);

/** Main wires longer than MAX_WIRE across, but for loop-backs, wires into outcomes and those declared long. */
function longWires(file: string, template: Template): string[] {
	const position = new Map(template.nodes.map((node) => [node.name, node.position]));
	const outcomes = outcomesOf(template);
	return wiresOf(template)
		.filter((wire) => wire.type === 'main' && !isLoopBack(file, wire))
		.filter((wire) => !outcomes.has(wire.to) && !(LONG_WIRES[file] ?? []).includes(named(wire)))
		.filter((wire) => position.get(wire.to)![0] - position.get(wire.from)![0] > MAX_WIRE)
		.map(named);
}

/** Main wires drawn across a node that is neither of their ends, or across a note's text. */
function wiresAcross(file: string, template: Template): string[] {
	const drawn = drawnNodes(template);
	const notes = drawnNotes(template);
	return wiresOf(template)
		.filter((wire) => wire.type === 'main' && !isLoopBack(file, wire))
		.flatMap((wire) => {
			const points = wirePoints(wire, drawn);
			const nodes = [...drawn.values()]
				.filter(({ node }) => node.name !== wire.from && node.name !== wire.to)
				.filter(({ body }) => points.some((point) => within(point, body, WIRE_CLEARANCE)))
				.map(({ node }) => `"${node.name}"`);
			const texts = notes
				.filter((note) => points.some((point) => within(point, note.text, 0)))
				.map((note) => `the text of "${note.node.name}"`);
			return [...nodes, ...texts].map((what) => `${named(wire)} across ${what}`);
		});
}

/** Names the editor cuts (more than two lines below the node). */
function cutNames(template: Template): string[] {
	return [...drawnNodes(template).values()]
		.filter((drawn) => drawn.label !== null && drawn.labelLines > LABEL_MAX_LINES)
		.map((drawn) => drawn.node.name);
}

for (const { file, template } of templates)
	describe(`the canvas of ${file} reads`, () => {
		it('no node or name covers the text of a sticky note', () => {
			expect(coveredNoteTexts(template)).toEqual([]);
		});

		it('no node is drawn on another, its name or its outputs', () => {
			expect(nodesOnNodes(template)).toEqual([]);
		});

		it('a note holds its nodes whole (a section) or none (a free note), and no note is on another', () => {
			expect(notesNotWhole(template)).toEqual([]);
		});

		it(`from ${SECTIONS_FROM} nodes, every node is in a coloured section that fits ${VIEWPORT.width} × ${VIEWPORT.height} at ${LEGIBLE_ZOOM}`, () => {
			expect(sectionsOf(template)).toEqual([]);
		});

		it('reads left to right: every wire goes right but the loop-backs; sub-nodes below', () => {
			expect(backwardWires(file, template)).toEqual([]);
		});

		it(`no wire spans more than ${MAX_WIRE} px but those declared long`, () => {
			expect(longWires(file, template)).toEqual([]);
		});

		it('no wire runs across a node or a note', () => {
			expect(wiresAcross(file, template)).toEqual([]);
		});

		it(`every node and note is on n8n's ${GRID} px grid`, () => {
			expect(offGrid(template)).toEqual([]);
		});

		it('every name is shown whole', () => {
			expect(cutNames(template)).toEqual([]);
		});
	});

/** Nodes and notes off n8n's grid: the editor would move them (and change the order n8n runs them in). */
function offGrid(template: Template): string[] {
	return template.nodes
		.filter((node) => node.position.some((coordinate) => coordinate % GRID !== 0))
		.map((node) => node.name);
}

describe('the canvas rules', () => {
	it('cover every template', () => {
		expect(templates.length).toBeGreaterThanOrEqual(11);
	});

	it('name loop-backs, long wires and recorders that exist', () => {
		for (const { file, template } of templates) {
			const wires = wiresOf(template).map(named);
			for (const loop of LOOP_BACKS[file] ?? []) expect(wires, file).toContain(loop);
			for (const long of LONG_WIRES[file] ?? []) expect(wires, file).toContain(long);
		}
		const recorded = templates.filter(({ template }) =>
			template.nodes.some((node) => RECORDERS.includes(node.name)),
		);
		expect(recorded.length).toBeGreaterThanOrEqual(2);
	});
});

describe('the canvas estimate', () => {
	it("sizes nodes as n8n 2.41.1's editor drew them (measured in Chromium)", () => {
		const size = (file: string, name: string) => {
			const { template } = templates.find((entry) => entry.file === file)!;
			const { body } = drawnNodes(template).get(name)!;
			return [body.right - body.x, body.bottom - body.y];
		};
		const xero = 'invoices-email-to-xero-with-approval.workflow.json';
		expect(size(xero, 'Extract invoice')).toEqual([96, 224]);
		expect(size(xero, 'Same invoice?')).toEqual([96, 128]);
		expect(size(xero, 'First to ask?')).toEqual([96, 96]);
		const agent = 'ai-agent-document-status.workflow.json';
		expect(size(agent, 'Invoice assistant')).toEqual([224, 96]);
		expect(size(agent, 'Chat model')).toEqual([80, 80]);
	});

	const note = (content: string, width = 400) => noteTextHeight(content, width);

	it("a note's text grows with its lines and shrinks with its width", () => {
		const text = 'A sentence of some length that wraps on a narrow note. '.repeat(6);
		expect(note(`## Heading\n${text}`)).toBeGreaterThan(note('## Heading'));
		expect(note(text, 300)).toBeGreaterThan(note(text, 800));
		// A heading and a paragraph of one line: about 24 × 1.35 + 19 + margins, never less.
		expect(note('## Set up\nOne line.')).toBeGreaterThanOrEqual(8 + 32 + 8 + 19 + 8);
	});

	it('a node drawn under the first lines of a note is found', () => {
		const template: Template = {
			nodes: [
				{
					name: 'Note',
					type: 'n8n-nodes-base.stickyNote',
					typeVersion: 1,
					position: [0, 0],
					parameters: { content: '## Title\nA line.\nAnother line.', width: 400, height: 400 },
				},
				{
					name: 'A',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [100, 60],
					parameters: {},
				},
				{
					name: 'B',
					type: 'n8n-nodes-base.set',
					typeVersion: 3.4,
					position: [100, 250],
					parameters: {},
				},
			],
			connections: {},
		};
		expect(coveredNoteTexts(template)).toEqual(['"Note": its text is under "A"']);
	});

	it('a name below a node, a node too close below it, and a wire across a third are found', () => {
		const set = (name: string, position: [number, number]) => ({
			name,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position,
			parameters: {},
		});
		const template: Template = {
			nodes: [set('A', [0, 0]), set('B', [0, 140]), set('C', [440, 0]), set('D', [220, 0])],
			connections: { A: { main: [[{ node: 'C', type: 'main', index: 0 }]] } },
		};
		expect(nodesOnNodes(template)).toEqual(['"A" and "B"']);
		expect(wiresAcross('x.json', template)).toEqual(['A → C across "D"']);
	});
});
