import { SmtpSink } from './smtp-sink.ts';

/**
 * The SMTP sink as a process of its own (see spawnSmtpSink): listens on the port given as the
 * argument, prints `{"ready":true}` and then one JSON line per accepted message.
 */
const sink = new SmtpSink(Number(process.argv[2]), {
  onMessage: (m) =>
    process.stdout.write(
      `${JSON.stringify({
        messageId: m.messageId ?? '',
        to: m.to && 'text' in m.to ? m.to.text : '',
        subject: m.subject ?? '',
      })}\n`,
    ),
});
await sink.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
