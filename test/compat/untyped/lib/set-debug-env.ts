// Runs before the packages imported after it, as `import "dotenv/config"` does.
process.env.DEBUG = "app:*";
export {};
