/** @jsxImportSource preact */
// JSX with preact's automatic runtime (pragma) in a package without "type".
// expect: preact <p class="x">hi <b>there</b></p>
import { render } from "preact-render-to-string";
console.log("preact", render(<p class="x">hi <b>there</b></p>));
