/* eslint-disable @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-restricted-globals -- test tooling runs in plain Node, never inside n8n */
/* eslint-disable @n8n/community-nodes/no-dangerous-functions -- tooling: asks `id` for the accounts Dovecot runs as */
// Dovecot as the IMAP server n8n's Email Trigger (IMAP) reads (Debian's dovecot-imapd, Homebrew's
// dovecot), behind startImapServer() (imapServer.ts): a config of its own in a temporary folder,
// one mailbox user, plain-text login on 127.0.0.1 and a free port, run in the foreground as this
// user (no root, no system config, no system service). A message is delivered the way a mail
// delivery agent does: into the user's Maildir (written to tmp/, renamed into new/), which Dovecot
// notices and announces to a client in IDLE, as it would a message that arrived over SMTP.
//
// Plain text without TLS because n8n's IMAP credential with "SSL/TLS" off connects without
// STARTTLS (@n8n/imap sets imapflow's doSTARTTLS to false) and everything stays on loopback.
//
// Dovecot's login processes refuse to run as root. As a normal user every Dovecot process runs as
// that user; run as root (CI), the login process runs as Debian's unprivileged `dovenull` and the
// mail processes as `dovecot` (both made by the dovecot-core package), which own the mail folder.

import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { log } from '../log.ts';
import { artifactsDir, timestampForFiles } from '../paths.ts';
import { spawnTracked, stopProcess, tailFile } from '../processes.ts';
import type { ImapServer } from './imapServer.ts';
import { deliverToMaildir, makeMaildir } from './maildir.ts';

interface Account {
	uid: number;
	gid: number;
	user: string;
	group: string;
}

/** The user and group whose uid/gid a Unix user name has (`id`, present on Linux and macOS). */
function accountOf(user: string): Account {
	const id = (flag: string) =>
		execFileSync('id', [flag, user], { encoding: 'utf8', timeout: 5_000 }).trim();
	return { uid: Number(id('-u')), gid: Number(id('-g')), user, group: id('-gn') };
}

/** Who Dovecot's processes run as (see the file comment). */
function processAccounts(): { login: Account; mail: Account } {
	if (process.getuid?.() !== 0) {
		const me = accountOf(userInfo().username);
		return { login: me, mail: me };
	}
	return { login: accountOf('dovenull'), mail: accountOf('dovecot') };
}

function dovecotConfig(options: {
	dir: string;
	port: number;
	passwdFile: string;
	accounts: { login: Account; mail: Account };
}): string {
	const { dir, port, passwdFile, accounts } = options;
	return `# Written by local-n8n/mail/imapServer.ts for one test run; nothing outside ${dir} is used.
protocols = imap
listen = 127.0.0.1
base_dir = ${join(dir, 'run')}
state_dir = ${join(dir, 'state')}
log_path = /dev/stderr
info_log_path = /dev/stderr
# Plain-text login on loopback only: n8n's IMAP credential without SSL/TLS sends LOGIN as it is.
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = ${accounts.mail.user}
default_internal_group = ${accounts.mail.group}
default_login_user = ${accounts.login.user}
first_valid_uid = ${accounts.mail.uid}
first_valid_gid = ${accounts.mail.gid}
mail_location = maildir:~/Maildir
# A delivered message reaches a client in IDLE at once (inotify), or within a second without it.
mailbox_idle_check_interval = 1 secs
# One log line per IMAP command a client finished ("Command finished: SELECT INBOX"): how a test
# knows that n8n's Email Trigger has opened the mailbox (see waitForMailboxOpened).
log_debug = event=imap_command_finished
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${passwdFile}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwdFile}
}
service imap-login {
  # chroot needs root; the login process runs in place instead.
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
`;
}

/**
 * Starts Dovecot (`dovecot`, its master program) with one mailbox, `user` with `password`, on
 * 127.0.0.1:`port`; its mail and state in `dir` (kept).
 */
export async function startDovecot(
	dovecot: string,
	options: { user: string; password: string; dir: string; port: number },
): Promise<ImapServer> {
	const { user, password, dir, port } = options;
	const accounts = processAccounts();
	const home = join(dir, 'mail', user);
	const maildir = join(home, 'Maildir');
	makeMaildir(maildir);
	mkdirSync(join(dir, 'run'), { recursive: true });
	mkdirSync(join(dir, 'state'), { recursive: true });
	// The mail processes (another user when run as root) must reach and own the mailbox.
	chmodSync(dir, 0o755);
	for (const path of [
		join(dir, 'mail'),
		home,
		maildir,
		...['tmp', 'new', 'cur'].map((s) => join(maildir, s)),
	])
		chownSync(path, accounts.mail.uid, accounts.mail.gid);
	const passwdFile = join(dir, 'passwd');
	// passwd-file: user:password:uid:gid:(gecos):home
	writeFileSync(
		passwdFile,
		`${user}:{PLAIN}${password}:${accounts.mail.uid}:${accounts.mail.gid}::${home}\n`,
		{ mode: 0o644 },
	);
	const configFile = join(dir, 'dovecot.conf');
	writeFileSync(configFile, dovecotConfig({ dir, port, passwdFile, accounts }));

	const logFile = join(artifactsDir(), `dovecot-${timestampForFiles()}-${port}.log`);
	let ready = false;
	let inboxOpened = 0;
	const proc = spawnTracked({
		name: 'dovecot',
		command: dovecot,
		args: ['-F', '-c', configFile],
		cwd: dir,
		logFile,
		onLine: (line) => {
			if (line.includes('starting up')) ready = true;
			if (/Command finished: (SELECT|EXAMINE) "?INBOX"?(\s|$)/i.test(line)) inboxOpened += 1;
		},
	});
	const deadline = Date.now() + 30_000;
	// "starting up" is logged before the listener is bound: ready is when a greeting comes back.
	while (!ready || !(await greets(port))) {
		if (proc.hasExited())
			throw new Error(`dovecot exited before it was ready:\n${tailFile(logFile)}`);
		if (Date.now() > deadline) {
			await stopProcess(proc, 5_000);
			throw new Error(`dovecot not ready after 30 s:\n${tailFile(logFile)}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	log('dovecot', `IMAP on 127.0.0.1:${port}, mailbox ${user}`);

	return {
		kind: 'dovecot',
		title: 'Dovecot',
		host: '127.0.0.1',
		port,
		user,
		password,
		logFile,
		maildir,
		deliver: (message) => deliverToMaildir(maildir, message),
		async waitForMailboxOpened(count = 1, timeoutMs = 60_000) {
			const until = Date.now() + timeoutMs;
			while (inboxOpened < count) {
				if (proc.hasExited()) throw new Error(`dovecot exited:\n${tailFile(logFile)}`);
				if (Date.now() > until)
					throw new Error(
						`INBOX opened ${inboxOpened} of ${count} times after ${timeoutMs} ms:\n${tailFile(logFile)}`,
					);
				await new Promise((resolve) => setTimeout(resolve, 100));
			}
		},
		stop: () => stopProcess(proc, 5_000),
	};
}

/** Whether an IMAP greeting ("* OK") comes from 127.0.0.1:`port`. */
async function greets(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const socket = connect(port, '127.0.0.1');
		const done = (answer: boolean) => {
			socket.destroy();
			resolve(answer);
		};
		socket.setTimeout(2_000, () => done(false));
		socket.once('error', () => done(false));
		socket.once('data', (chunk) => done(chunk.toString('latin1').startsWith('* OK')));
	});
}
