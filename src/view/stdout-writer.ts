/**
 * Writing a view to stdout: waits for 'drain' when the reader is slow (bounded memory), and treats a
 * reader that went away (EPIPE: `mcp-tap tail | head`) as the end of the output, not as an error.
 */

/** A write function for `stream`; `onClosed` is called once when the stream can take no more output. */
export function stdoutWriter(stream: NodeJS.WritableStream, onClosed: () => void): (text: string) => Promise<void> | void {
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClosed();
  };
  stream.on('error', close);
  return (text: string) => {
    if (closed || text === '') return;
    if (stream.write(text)) return;
    return new Promise<void>((resolve) => {
      const done = () => {
        stream.off('drain', done);
        stream.off('close', done);
        resolve();
      };
      stream.on('drain', done);
      stream.on('close', done);
    });
  };
}
