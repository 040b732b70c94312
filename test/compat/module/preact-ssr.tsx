/** @jsxImportSource preact */
// preact's automatic JSX runtime + preact-render-to-string in a "type": "module" package.
// expect: preact <ul><li>1</li><li>2</li></ul>
import { render } from "preact-render-to-string";
import { h } from "preact";
const items = [1, 2];
console.log("preact", render(<ul>{items.map((n) => <li>{n}</li>)}</ul>), typeof h === "function" ? "" : "no h");
