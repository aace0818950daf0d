// Newline-delimited reading for the bench's client and echo server: calls onLine with each complete line
// (UTF-8 text, without the LF) of a readable stream, joining lines split across chunks.
export function onLines(stream, onLine) {
  let parts = [];
  stream.on('data', (chunk) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) {
        if (start < chunk.length) parts.push(start === 0 ? chunk : chunk.subarray(start));
        return;
      }
      let line;
      if (parts.length === 0) line = chunk.toString('utf8', start, nl);
      else {
        parts.push(chunk.subarray(start, nl));
        line = Buffer.concat(parts).toString('utf8');
        parts = [];
      }
      onLine(line);
      start = nl + 1;
    }
  });
}
