process.stdout.write('toolbridge: commands are coming: search | describe | listing | eval | serve | mcp\n');
