// The canvas of a template as n8n 2.x's editor draws it, estimated from the template's JSON alone:
// where each node, its name and its output names are, how far down a sticky note's text reaches,
// and the path of each wire. Pure: it reads template JSON and runs nothing. The sizes are n8n
// 2.41.1's editor (n8n-editor-ui: useCanvasNode sizes, CanvasNodeDefault.vue, N8nSticky.vue,
// getEdgeRenderData), rounded up where text is involved. Checked against the templates opened in
// that editor in Chromium: every node's size exact, every name and every note's text within the
// estimate (a note's text drew at 0.55 to 0.85 of it).
import type { INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { NodeHelpers } from 'n8n-workflow';

import { DocumentExtraction } from '../../../nodes/DocumentExtraction/DocumentExtraction.node.ts';
import {
	nodeOutputCount,
	outputSettingsFrom,
} from '../../../nodes/DocumentExtraction/actions/document/extractOutputs.ts';

export interface TemplateNode {
	name: string;
	type: string;
	typeVersion: number;
	position: [number, number];
	parameters: Record<string, unknown>;
}
export interface Connection {
	node: string;
	type: string;
	index: number;
}
export interface Template {
	nodes: TemplateNode[];
	connections: Record<string, Record<string, Array<Connection[] | null>>>;
}
export interface Box {
	x: number;
	y: number;
	right: number;
	bottom: number;
}
export interface Wire {
	from: string;
	to: string;
	type: string;
	output: number;
	input: number;
}

/** n8n 2.x draws a node 96 × 96 (DEFAULT_NODE_SIZE: six squares of its 16 px grid). */
export const NODE_SIZE = 96;
/** Each main input or output past the second makes a node 32 px taller (two grid squares). */
const PORT_HEIGHT = 32;
/** A sub-node (a chat model, a tool) is an 80 × 80 circle (CONFIGURATION_NODE_SIZE). */
const SUB_NODE_SIZE = 80;
/** The name below a node: 8 px down, two lines of 16 px at line height 1.25, a subtitle line. */
const LABEL_TOP = 8;
const LABEL_LINE = 20;
const SUBTITLE = 4 + 17;
/** The editor cuts a name after two lines (`-webkit-line-clamp: 2`). */
export const LABEL_MAX_LINES = 2;
/** A character of a name at 16 px, medium weight, rounded up (Inter averages about 8.5 px). */
const LABEL_CHAR = 9;
/** An output's name is drawn 20 px right of the node, at most 96 px wide; 4 px to spare. */
const OUTPUT_NAME = 20 + 96 + 4;

const STICKY = 'n8n-nodes-base.stickyNote';
/** n8n's sticky note defaults (n8n-nodes-base StickyNote). */
const STICKY_WIDTH = 240;
const STICKY_HEIGHT = 160;

export const isNote = (node: TemplateNode) => node.type === STICKY;

const description = new DocumentExtraction().description as INodeTypeDescription;

/** The package's nodes: as many outputs as the package's own rule gives at the node's version. */
function packageOutputs(node: TemplateNode): number {
	if (node.type !== 'n8n-nodes-document-extraction.documentExtraction') return 1;
	const parameters =
		NodeHelpers.getNodeParameters(
			description.properties,
			node.parameters as INodeParameters,
			true,
			false,
			node as never,
			description,
		) ?? {};
	const settings = outputSettingsFrom((name, fallback) => parameters[name] ?? fallback);
	return nodeOutputCount({
		resource: String(parameters.resource),
		operation: String(parameters.operation),
		...settings,
	});
}

/** The main outputs n8n draws for a node: by its type where it decides, else as many as are wired. */
function outputCount(node: TemplateNode, wired: number): number {
	const parameters = node.parameters as {
		rules?: { values?: unknown[] };
		options?: { fallbackOutput?: string };
	};
	const byType: Record<string, () => number> = {
		'n8n-nodes-base.if': () => 2,
		'n8n-nodes-base.splitInBatches': () => 2,
		'n8n-nodes-base.switch': () =>
			(parameters.rules?.values?.length ?? 0) +
			(parameters.options?.fallbackOutput === 'extra' ? 1 : 0),
	};
	return Math.max(wired, byType[node.type]?.() ?? packageOutputs(node));
}

/** Every wire of the template, of every connection type. */
export function wiresOf(template: Template): Wire[] {
	return Object.entries(template.connections).flatMap(([from, byType]) =>
		Object.entries(byType).flatMap(([type, outputs]) =>
			outputs.flatMap((targets, output) =>
				(targets ?? []).map((target) => ({
					from,
					to: target.node,
					type,
					output,
					input: target.index,
				})),
			),
		),
	);
}

/** A node as drawn: its body, the name below it, and where its output names are. */
export interface Drawn {
	node: TemplateNode;
	body: Box;
	label: Box | null;
	outputNames: Box | null;
	outputs: number;
	inputs: number;
	labelLines: number;
}

/** Lines a name takes at `width` px, wrapped at spaces (`overflow-wrap: anywhere` for a long word). */
function nameLines(name: string, width: number): number {
	let lines = 1;
	let used = 0;
	for (const word of name.split(' ')) {
		const length = word.length * LABEL_CHAR;
		const needed = used === 0 ? length : used + LABEL_CHAR + length;
		if (needed <= width) used = needed;
		else {
			lines += 1 + Math.floor(Math.max(0, length - 1) / width);
			used = length % width || width;
		}
	}
	return lines;
}

/** Each non-sticky node of the template as the editor draws it. */
export function drawnNodes(template: Template): Map<string, Drawn> {
	const wires = wiresOf(template);
	const drawn = new Map<string, Drawn>();
	for (const node of template.nodes.filter((entry) => !isNote(entry))) {
		const main = wires.filter((wire) => wire.type === 'main');
		const wiredOutputs = Math.max(
			0,
			...main.filter((w) => w.from === node.name).map((w) => w.output + 1),
		);
		const wiredInputs = Math.max(
			0,
			...main.filter((w) => w.to === node.name).map((w) => w.input + 1),
		);
		const subNode = wires.some((wire) => wire.from === node.name && wire.type !== 'main');
		const subNodeTypes = new Set(
			wires.filter((wire) => wire.to === node.name && wire.type !== 'main').map((w) => w.type),
		);
		const outputs = subNode ? 0 : outputCount(node, wiredOutputs);
		const declaredInputs = Number((node.parameters as { numberInputs?: number }).numberInputs ?? 0);
		const inputs = Math.max(
			wiredInputs,
			declaredInputs,
			node.type === 'n8n-nodes-base.merge' ? 2 : 0,
		);
		const [x, y] = node.position;
		// useCanvasNode: a node with sub-nodes is as wide as its sub-node inputs, at least four.
		const width = subNode
			? SUB_NODE_SIZE
			: subNodeTypes.size > 0
				? 80 + 16 * 3 * (Math.max(4, subNodeTypes.size) - 1)
				: NODE_SIZE;
		const height = subNode
			? SUB_NODE_SIZE
			: NODE_SIZE + Math.max(0, Math.max(inputs, outputs) - 2) * PORT_HEIGHT;
		const body = { x, y, right: x + width, bottom: y + height };
		// A node with sub-nodes writes its name inside; the others below, twice as wide as the node.
		const labelWidth = 2 * width;
		const lines = nameLines(node.name, labelWidth);
		const label =
			subNodeTypes.size > 0
				? null
				: {
						x: x + width / 2 - labelWidth / 2,
						y: body.bottom,
						right: x + width / 2 + labelWidth / 2,
						bottom:
							body.bottom + LABEL_TOP + Math.min(lines, LABEL_MAX_LINES) * LABEL_LINE + SUBTITLE,
					};
		const outputNames =
			outputs > 1
				? { x: body.right, y: body.y, right: body.right + OUTPUT_NAME, bottom: body.bottom }
				: null;
		drawn.set(node.name, { node, body, label, outputNames, outputs, inputs, labelLines: lines });
	}
	return drawn;
}

export const overlap = (a: Box, b: Box) =>
	a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom;
export const inside = (a: Box, b: Box) =>
	a.x >= b.x && a.right <= b.right && a.y >= b.y && a.bottom <= b.bottom;

// --- Sticky notes: their markdown as N8nSticky renders it (markdown-it, `breaks: true`).

/** The note's padding: 8 px at the top, 12 px at each side (N8nSticky's wrapper). */
const NOTE_PADDING_TOP = 8;
const NOTE_PADDING_SIDE = 12;
/** Text at 14 px (paragraphs, list items): a character, rounded up (Inter averages about 7 px). */
const TEXT_CHAR = 7.5;
/** `code` is monospace, a little wider, with padding around each span. */
const CODE_CHAR = 8.5;
const CODE_PADDING = 6;
/** Line heights: paragraphs 14 px × 1.35, list items 14 px × 1.3 plus 0.25 em above each. */
const PARAGRAPH_LINE = 14 * 1.35;
const LIST_LINE = 14 * 1.3;
const LIST_ITEM_GAP = 3.5;
const LIST_INDENT = 20;
/** Each block (paragraph, heading, list) ends with an 8 px margin. */
const BLOCK_GAP = 8;
/** Headings: `#` 36 px, `##` 24 px, `###` and smaller 16 px, bold, line height 1.35. */
const HEADING_SIZE = [36, 24, 16, 16, 16, 16];
/** A bold character is about 0.6 of the font size. */
const HEADING_CHAR = 0.6;
/** The estimate is made generous: 10 % more, and a line's worth below, before a node may follow. */
const TEXT_SLACK = 1.1;
const TEXT_MARGIN = 16;

/** The width of a line of inline markdown at 14 px: emphasis marks dropped, links as their text. */
function inlineWidths(text: string): number[] {
	const words: number[] = [];
	const plain = text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
	for (const word of plain.split(/\s+/).filter(Boolean)) {
		let width = 0;
		const parts = word.split('`');
		parts.forEach((part, index) => {
			const code = index % 2 === 1;
			const shown = code ? part : part.replace(/[*_]/g, '');
			width += shown.length * (code ? CODE_CHAR : TEXT_CHAR) + (code ? CODE_PADDING : 0);
		});
		words.push(width);
	}
	return words;
}

/** Lines a run of words takes at `width` px (a word wider than the line breaks anywhere). */
function wrappedLines(words: number[], width: number, space: number): number {
	let lines = 1;
	let used = 0;
	for (const word of words) {
		const needed = used === 0 ? word : used + space + word;
		if (needed <= width) used = needed;
		else if (word > width) {
			lines += Math.ceil(word / width) - (used === 0 ? 1 : 0);
			used = word % width;
		} else {
			lines += used === 0 ? 0 : 1;
			used = word;
		}
	}
	return lines;
}

/** How far down from a note's top its text reaches when the note is `width` px wide. */
export function noteTextHeight(content: string, width: number): number {
	const textWidth = width - 2 * NOTE_PADDING_SIDE;
	let height = NOTE_PADDING_TOP;
	let block: 'none' | 'paragraph' | 'list' = 'none';
	const close = () => {
		if (block !== 'none') height += BLOCK_GAP;
		block = 'none';
	};
	for (const line of content.split('\n')) {
		const heading = /^(#{1,6})\s+(.*)$/.exec(line);
		const item = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
		if (line.trim() === '') close();
		else if (heading) {
			close();
			const size = HEADING_SIZE[heading[1].length - 1];
			const words = heading[2].split(/\s+/).map((word) => word.length * size * HEADING_CHAR);
			height += wrappedLines(words, textWidth, size * 0.3) * size * 1.35 + BLOCK_GAP;
		} else if (item || block === 'list') {
			if (block !== 'list') close();
			block = 'list';
			const words = inlineWidths(item ? item[1] : line);
			height += wrappedLines(words, textWidth - LIST_INDENT, TEXT_CHAR / 2) * LIST_LINE;
			if (item) height += LIST_ITEM_GAP;
		} else {
			block = 'paragraph';
			height += wrappedLines(inlineWidths(line), textWidth, TEXT_CHAR / 2) * PARAGRAPH_LINE;
		}
	}
	close();
	return height * TEXT_SLACK + TEXT_MARGIN;
}

/** A sticky note as drawn: the whole note, and the part its text covers (from the top). */
export interface DrawnNote {
	node: TemplateNode;
	box: Box;
	text: Box;
	color: number | undefined;
}

export function drawnNotes(template: Template): DrawnNote[] {
	return template.nodes.filter(isNote).map((node) => {
		const parameters = node.parameters as {
			content?: string;
			width?: number;
			height?: number;
			color?: number;
		};
		const [x, y] = node.position;
		const width = parameters.width ?? STICKY_WIDTH;
		const height = parameters.height ?? STICKY_HEIGHT;
		const box = { x, y, right: x + width, bottom: y + height };
		const textHeight = Math.min(height, noteTextHeight(parameters.content ?? '', width));
		return { node, box, text: { ...box, bottom: y + textHeight }, color: parameters.color };
	});
}

// --- Wires: a forward wire is vue-flow's bezier from an output's handle to an input's handle.

/** Where the `index`th of `count` handles sits on a side `height` tall: evenly spread. */
const handleY = (box: Box, index: number, count: number) =>
	box.y + ((box.bottom - box.y) * (index + 1)) / (Math.max(count, 1) + 1);

/** Points along a main wire drawn forward (target right of source): vue-flow's getBezierPath. */
export function wirePoints(
	wire: Wire,
	drawn: Map<string, Drawn>,
	samples = 60,
): Array<[number, number]> {
	const source = drawn.get(wire.from);
	const target = drawn.get(wire.to);
	if (!source || !target) return [];
	const x0 = source.body.right;
	const y0 = handleY(source.body, wire.output, source.outputs);
	const x3 = target.body.x;
	const y3 = handleY(target.body, wire.input, target.inputs);
	// calculateControlOffset: half the horizontal distance when the target is to the right.
	const offset = Math.max(0, x3 - x0) * 0.5;
	const [x1, y1, x2, y2] = [x0 + offset, y0, x3 - offset, y3];
	const points: Array<[number, number]> = [];
	for (let step = 0; step <= samples; step++) {
		const t = step / samples;
		const u = 1 - t;
		points.push([
			u ** 3 * x0 + 3 * u ** 2 * t * x1 + 3 * u * t ** 2 * x2 + t ** 3 * x3,
			u ** 3 * y0 + 3 * u ** 2 * t * y1 + 3 * u * t ** 2 * y2 + t ** 3 * y3,
		]);
	}
	return points;
}
