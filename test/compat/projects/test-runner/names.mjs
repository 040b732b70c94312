// A test reporter that prints each passing and failing test once the run ends, sorted: the
// runner's own reporters print durations, which differ from run to run.
export default async function* names(source) {
  const lines = [];
  for await (const event of source) {
    if ((event.type === "test:pass" || event.type === "test:fail") && event.data.details.type === "test") {
      lines.push(`${event.type === "test:pass" ? "pass" : "fail"} ${event.data.name}`);
    }
  }
  yield `${lines.sort().join("\n")}\n`;
}
