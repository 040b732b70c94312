// vue's server renderer through require() in CommonJS .ts.
// expect: vue <div>count: 2</div>
const { createSSRApp, h, ref } = require("vue");
const { renderToString } = require("vue/server-renderer");
const app = createSSRApp({
  setup: () => {
    const n = ref(2);
    return () => h("div", `count: ${n.value}`);
  },
});
renderToString(app).then((html: string) => console.log("vue", html));
