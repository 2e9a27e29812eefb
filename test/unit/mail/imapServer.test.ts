// Which IMAP server startImapServer() runs: the one asked for; for 'auto' (npm start),
// LOCAL_IMAP_SERVER when it names one, else Dovecot when it is installed, else the one in Node.
import { describe, expect, it } from 'vitest';
import { chooseImapServer } from '../../../local-n8n/mail/index.ts';

const installed = () => true;
const missing = () => false;

describe('the IMAP server chosen', () => {
	it('is the one asked for, whatever is installed', () => {
		expect(chooseImapServer('dovecot', {}, missing)).toBe('dovecot');
		expect(chooseImapServer('node', { LOCAL_IMAP_SERVER: 'dovecot' }, installed)).toBe('node');
	});

	it('auto: Dovecot where installed, else the IMAP server in Node', () => {
		expect(chooseImapServer('auto', {}, installed)).toBe('dovecot');
		expect(chooseImapServer('auto', {}, missing)).toBe('node');
	});

	it('auto: LOCAL_IMAP_SERVER decides when it names a kind', () => {
		expect(chooseImapServer('auto', { LOCAL_IMAP_SERVER: 'node' }, installed)).toBe('node');
		expect(chooseImapServer('auto', { LOCAL_IMAP_SERVER: ' Dovecot ' }, missing)).toBe('dovecot');
		expect(chooseImapServer('auto', { LOCAL_IMAP_SERVER: 'other' }, missing)).toBe('node');
	});
});
