// Async boundary: the shared singletons (react, router, ui) are negotiated before bootstrap runs.
import('./bootstrap.tsx');
