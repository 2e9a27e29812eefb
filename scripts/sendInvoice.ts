/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- tooling runs in plain Node, never inside n8n */
// `npm run send-invoice [-- --to xero|quickbooks] [-- a.pdf b.png …]`: an invoice email into the
// local mailbox an email-to-books template of the running `npm start` reads, delivered as a mail
// delivery agent does (into its Maildir, read by Dovecot or the IMAP server in Node alike). Without
// files: four invoices of this moment (new ones each time, so each run books again) and the
// supplier's logo, the way invoices arrive.
// The running start is found through its record (scripts/runningStart.ts), whatever --data or
// --fresh it was given; with several running, the one started last.
// Options: --to (default xero), --data <folder> (the running start on that data folder).

import { existsSync, readFileSync } from 'node:fs';
import { basename, extname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { say } from '../local-n8n/index.ts';
import {
	composeMessage,
	deliverToMaildir,
	invoicePdf,
	logoPng,
	type MessageAttachment,
} from '../local-n8n/mail/index.ts';
import { EMAIL_TO_BOOKS, mailboxesFile, readMailboxes, type Books } from './mailboxes.ts';
import { chooseStart, runningStarts } from './runningStart.ts';

const { values: args, positionals: files } = parseArgs({
	allowPositionals: true,
	options: {
		to: { type: 'string', default: 'xero' },
		data: { type: 'string' },
	},
});

const CONTENT_TYPES: Record<string, string> = {
	'.pdf': 'application/pdf',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.json': 'application/json',
	'.csv': 'text/csv',
};

function fail(message: string): never {
	process.stderr.write(`${message}\n`);
	process.exit(1);
}

/**
 * Four invoices no run sent before and a logo: three scans the sandbox derives from their bytes, and
 * one as JSON (the service reads its fields) whose 12,480.00 needs two approval steps under npm
 * start's policy (scripts/demoPolicy.ts).
 */
function sampleAttachments(): MessageAttachment[] {
	const at = new Date().toISOString();
	const invoices = ['office supplies', 'consulting', 'cloud services'].map((what, index) => ({
		fileName: `invoice-${index + 1}.pdf`,
		contentType: 'application/pdf',
		content: invoicePdf([`Invoice for ${what}`, `Issued ${at}`]),
	}));
	const machinery = {
		header: {
			vendor: 'Northwind Machinery Ltd',
			date: at.slice(0, 10),
			invoice_no: `NW-${at.replace(/\D/g, '').slice(0, 14)}`,
			currency: 'EUR',
		},
		amounts: { subtotal: 10400, tax: 2080, total: 12480 },
		line_items: [
			{ description: 'Packaging machine service', quantity: 2, unit_price: 5200, amount: 10400 },
		],
		confidence: 0.98,
	};
	return [
		...invoices,
		{
			fileName: 'invoice-4.json',
			contentType: 'application/json',
			content: Buffer.from(JSON.stringify(machinery, null, 2)),
		},
		{ fileName: 'logo.png', contentType: 'image/png', content: logoPng() },
	];
}

function ownAttachments(paths: string[]): MessageAttachment[] {
	return paths.map((path) => {
		const file = resolve(path);
		if (!existsSync(file)) fail(`No such file: ${file}`);
		const contentType = CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
		return { fileName: basename(file), contentType, content: readFileSync(file) };
	});
}

const books = args.to as Books;
if (!(books in EMAIL_TO_BOOKS)) fail(`--to must be xero or quickbooks (got ${args.to}).`);
const chosen = chooseStart(
	runningStarts(),
	args.data === undefined ? undefined : resolve(args.data),
);
if ('error' in chosen) fail(chosen.error);
const { dataDir, pid } = chosen.start;
if (!existsSync(mailboxesFile(dataDir)))
	fail(
		`npm start (process ${pid}) runs no local mailboxes in ${dataDir}: see the Mailboxes line it printed.`,
	);
const mailbox = readMailboxes(dataDir)[books];
if (!mailbox) fail(`npm start made no ${books} mailbox in ${dataDir}.`);
if (chosen.note) say(chosen.note);

const attachments = files.length > 0 ? ownAttachments(files) : sampleAttachments();
const subject = `Invoices ${new Date().toISOString().slice(0, 16).replace('T', ' ')}`;
deliverToMaildir(
	mailbox.maildir,
	composeMessage({
		from: 'Accounts <billing@supplier.example>',
		to: mailbox.address,
		subject,
		text: 'Please find our invoices attached.',
		attachments,
	}),
);
say(
	`Delivered "${subject}" with ${attachments.map((file) => file.fileName).join(', ')} to ${mailbox.address}.`,
);
say(
	`The ${books === 'xero' ? 'Xero' : 'QuickBooks'} template picks it up within seconds: each invoice runs on its own; approval emails appear in the npm start window.`,
);
