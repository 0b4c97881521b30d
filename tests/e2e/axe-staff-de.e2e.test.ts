// axe on every staff screen and state in German, at 375×740 and 1280×900.
import { describeStaffScreens } from './axe-staff.ts';

describeStaffScreens('de');
