// Reading the GPU websocket's "events" frames without parsing every event.
// A frame is {"type":"events","events":[E,E,...]} where each E is a
// trace.Event written by the server's one encoder (sim/trace/json.go,
// byte for byte encoding/json): an object that starts with {"seq": and
// whose second member is "kind". That text cannot occur inside a JSON
// string (its quotes would be escaped), so the events can be counted and
// found with indexOf, and only those the panel needs are parsed: the
// newest (progress line) and the output events (the script's stdout).
// A 1 MiB frame costs about a tenth of JSON.parse that way.

const START = '{"seq":';
const PREFIX = '{"type":"events","events":[';

/**
 * scanFrame reads one websocket message. For an "events" frame it returns
 * {type: 'events', count, last, outputs}: the number of events, the newest
 * one (parsed) and the text of its output events in order; any other
 * message is returned as JSON.parse gives it.
 */
export function scanFrame(data) {
  if (!data.startsWith(PREFIX)) return JSON.parse(data);
  let count = 0;
  let last = -1;
  let outputs = '';
  let i = data.indexOf(START, PREFIX.length);
  while (i >= 0) {
    count++;
    last = i;
    const next = data.indexOf(START, i + START.length);
    const comma = data.indexOf(',', i + START.length);
    if (data.startsWith(',"kind":"output"', comma)) {
      outputs += JSON.parse(data.slice(i, next < 0 ? data.length - 2 : next - 1)).text || '';
    }
    i = next;
  }
  const lastEvent = last < 0 ? null : JSON.parse(data.slice(last, data.length - 2));
  return { type: 'events', count, last: lastEvent, outputs };
}
