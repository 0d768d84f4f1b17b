/**
 * Reads an SSE answer's `data:` frames (each one JSON) until `done` says enough, then stops
 * reading and cancels the body. Ends early, with the frames read, when the stream ends.
 */
export async function readFrames<T>(response: Response, done: (frames: T[]) => boolean): Promise<T[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const frames: T[] = [];
  let text = '';
  while (!done(frames)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const data = text
        .slice(0, end)
        .split('\n')
        .find((line) => line.startsWith('data: '));
      text = text.slice(end + 2);
      if (data) frames.push(JSON.parse(data.slice(6)) as T);
    }
  }
  await reader.cancel();
  return frames;
}
