// Async boundary: the shared singletons are negotiated before the standalone page starts.
import('./bootstrap.tsx');
