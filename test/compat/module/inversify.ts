// inversify: constructor injection by type, which needs emitDecoratorMetadata.
// expect: inversify hello from Greeter
import "reflect-metadata";
import { Container, injectable } from "inversify";
@injectable()
class Greeter {
  greet() {
    return "hello from Greeter";
  }
}
@injectable()
class App {
  constructor(readonly greeter: Greeter) {}
}
const container = new Container({ autobind: true });
console.log("inversify", container.get(App).greeter.greet());
