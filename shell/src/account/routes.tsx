import { Route } from 'react-router-dom';
import { Suspended } from './Suspended.tsx';
import { ChangePassword } from './ChangePassword.tsx';
import { Login } from './Login.tsx';
import { Register } from './Register.tsx';
import { ResetPassword } from './ResetPassword.tsx';
import { VerifyEmail } from './VerifyEmail.tsx';

/** Sign-in screens: outside the public layout, so without its header and footer (spec 1 §2). */
export const accountScreenRoutes = (
  <>
    <Route path="/login" element={<Login />} />
    <Route path="/register" element={<Register />} />
    <Route path="/reset-password" element={<ResetPassword />} />
    <Route path="/change-password" element={<ChangePassword />} />
    <Route path="/geblokkeerd" element={<Suspended />} />
  </>
);

/** The activation page shows the public header and footer: mount it inside the public layout. */
export const verifyEmailRoute = <Route path="verify-email" element={<VerifyEmail />} />;
