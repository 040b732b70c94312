// reflect-metadata with experimentalDecorators + emitDecoratorMetadata (tsconfig.json).
// expect: reflect-metadata Logger,Number,String
import "reflect-metadata";
class Logger {}
const Injectable = (): ClassDecorator => () => {};
@Injectable()
class Service {
  constructor(
    readonly logger: Logger,
    readonly retries: number,
    readonly name: string,
  ) {}
}
const types: Function[] = Reflect.getMetadata("design:paramtypes", Service) ?? [];
console.log("reflect-metadata", types.map((t) => t.name).join(","));
