// solid-js's server build (Node condition): signals, store and renderToString without a JSX compiler.
// expect: solid <b>3</b> 2
import { createSignal } from "solid-js";
import { createStore } from "solid-js/store";
import { escape as escapeHtml, renderToString, ssr } from "solid-js/web";
const [count] = createSignal(3);
const [state] = createStore({ list: [1, 2] });
console.log(
  "solid",
  renderToString(() => ssr(["<b>", "</b>"], escapeHtml(count()))),
  state.list.length,
);
