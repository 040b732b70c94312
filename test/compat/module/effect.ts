// effect: the barrel import and a module subpath.
// expect: effect 42 fail:boom
import { Effect } from "effect";
import * as Exit from "effect/Exit";
const program = Effect.succeed(21).pipe(Effect.map((n) => n * 2));
const failed = Effect.runSyncExit(Effect.fail("boom"));
console.log("effect", Effect.runSync(program), Exit.isFailure(failed) ? "fail:boom" : "ok");
