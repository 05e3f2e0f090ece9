// The same analysis as the language server, from the command line.
console.error('usage: vis-authoring check [PATH...]');
process.exit(2);
