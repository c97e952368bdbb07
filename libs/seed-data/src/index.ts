// The public surface of libs/seed-data: the import file format and its importer (the CLI's `import`), and the
// demo data `npm start` seeds outside production.

// Import: an organization tree from a JSON file, validated whole before anything is written
export * from './import/import-file';
export * from './import/import-rejected.error';
export * from './import/importer';

// Demo data: the ids the served OpenAPI document pre-fills, and the seeder
export * from './demo/demo-data';
export * from './demo/demo-path-ids';
export * from './demo/demo-seeder';
