module.exports = require("./module-exports-point.mts");
