// The approver's side of n8n's Send and Wait for Response by email, as a person uses it: the signed
// form link in the email, the form page, and the answer (Decision, Reason) submitted from it.

import { expect } from 'vitest';
import { request } from 'undici';
import type { N8nClient } from '../../../local-n8n/index.ts';
import type { MailMessage } from '../../../local-n8n/mail/index.ts';
import { sleep } from './n8nAndSandbox.ts';

/** A message whose subject starts with `subjectStart`, names `invoiceNo` and goes to `to`. */
export function mailAbout(invoiceNo: string, subjectStart: string, to: string) {
	return (message: MailMessage) =>
		message.subject.startsWith(subjectStart) &&
		message.subject.includes(invoiceNo) &&
		message.to.includes(to);
}

/** The link of the Send and Wait email's button: n8n's signed /webhook-waiting/ address. */
export function formLink(message: MailMessage): string {
	const links = message.links.filter((link) => link.includes('/webhook-waiting/'));
	expect(links, message.subject).toHaveLength(1);
	expect(links[0]).toMatch(/[?&]signature=/);
	return links[0];
}

/**
 * Opens the form as a browser does; the page n8n renders. The email leaves before n8n has put the
 * execution to wait, and until then n8n answers 409 "running already": a person reading the email
 * takes longer than that, so the page is asked for again for a while, as a reload would.
 */
export async function openForm(client: N8nClient, link: string) {
	for (let attempt = 1; ; attempt++) {
		const response = await request(link, { dispatcher: client.dispatcher });
		const page = { status: response.statusCode, html: await response.body.text() };
		if (page.status !== 409 || attempt === 30) return page;
		await sleep(1_000);
	}
}

/** Submits the form (Decision, Reason, and Your name when given) as a browser does: multipart, to the link itself. */
export async function answerForm(
	client: N8nClient,
	link: string,
	decision: 'Approve' | 'Reject',
	reason: string,
	name?: string,
) {
	return await submitForm(
		client,
		link,
		name === undefined ? [decision, reason] : [decision, reason, name],
	);
}

/** Submits a form's fields in their order (n8n names them field-0, field-1, …) as a browser does. */
export async function submitForm(client: N8nClient, link: string, values: string[]) {
	const form = new FormData();
	values.forEach((value, index) => form.append(`field-${index}`, value));
	const encoded = new Response(form);
	const response = await request(link, {
		method: 'POST',
		dispatcher: client.dispatcher,
		headers: { 'content-type': encoded.headers.get('content-type') as string },
		body: Buffer.from(await encoded.arrayBuffer()),
	});
	return { status: response.statusCode, html: await response.body.text() };
}
