// expect: immer {"todos":[{"done":true}]} false true
import { produce } from "immer";
const base = { todos: [{ done: false }] };
const next = produce(base, (draft) => {
  draft.todos[0].done = true;
});
console.log("immer", JSON.stringify(next), base.todos[0].done, Object.isFrozen(next));
