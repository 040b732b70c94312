// JSX with the automatic runtime in a "type": "module" package, rendered with react-dom/server.
// expect: react <main><h1>Hello rt</h1><p>2 items</p></main>
import { renderToString } from "react-dom/server";
import { useState } from "react";
function App({ name }: { name: string }) {
  const [items] = useState(["a", "b"]);
  return <main><h1>Hello {name}</h1><p>{items.length} items</p></main>;
}
console.log("react", renderToString(<App name="rt" />).replace(/<!-- -->/g, ""));
