// expect: vue <p>hello vue</p>
import { createSSRApp, h } from "vue";
import { renderToString } from "vue/server-renderer";
console.log("vue", await renderToString(createSSRApp({ render: () => h("p", "hello vue") })));
