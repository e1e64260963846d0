// The router every frontend shares: at run time 'react-router-dom' is this module, one copy provided
// by the shell (packages/frontend-build). A shared module cannot be tree-shaken, as the shell cannot
// know what a remote will use: all of react-router would cost every first visit 62 kB gzipped, this
// list of its browser API 14 kB. tsconfig.web.json maps 'react-router-dom' here as well, so using a
// name that is not listed fails `npm run typecheck`: add it here.
export {
  BrowserRouter,
  Link,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  generatePath,
  matchPath,
  useLocation,
  useMatch,
  useNavigate,
  useOutletContext,
  useParams,
  useSearchParams,
} from 'react-router';
export type { LinkProps, NavLinkProps, NavigateFunction, Params, To } from 'react-router';
