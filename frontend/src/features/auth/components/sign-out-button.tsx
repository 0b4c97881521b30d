import { useAppDispatch } from '../../../app/hooks';
import { useTranslation } from '../../../i18n/i18n-context';
import { notify } from '../../../stores/notifications-slice';
import { useLogoutMutation } from '../api/auth-api';

export function SignOutButton() {
  const { t } = useTranslation('auth');
  const dispatch = useAppDispatch();
  const [logout, { isLoading }] = useLogoutMutation();

  const signOut = async () => {
    try {
      await logout().unwrap();
      dispatch(notify({ title: t('signed-out'), type: 'info' }));
    } catch {
      dispatch(notify({ title: t('sign-out-failed'), type: 'error' }));
    }
  };

  return (
    <button
      type="button"
      className="button button--secondary"
      disabled={isLoading}
      onClick={signOut}
    >
      {t('sign-out')}
    </button>
  );
}
