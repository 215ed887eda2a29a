/**
 * The directory the demo and fast tests start from, as LDIF so that the
 * in-memory directory and the throw-away slapd of the tests
 * (test/helpers/slapd.ts) load exactly the same tree. It only uses the core,
 * cosine, inetorgperson and nis schemas that every slapd ships.
 *
 * Passwords: cn=admin is "admin-password" and svc-app1 is "svc-app1-password",
 * stored plain; svc-batchN is "svc-batchN-password", stored as {SSHA} (fixed
 * salts so the text is stable) so both verification paths are exercised.
 */

export const DEFAULT_BASE_DN = 'dc=example,dc=org';
export const DEFAULT_ADMIN_DN = 'cn=admin,dc=example,dc=org';
export const DEFAULT_ADMIN_PASSWORD = 'admin-password';

export const DEFAULT_DIRECTORY_LDIF = `dn: dc=example,dc=org
objectClass: top
objectClass: dcObject
objectClass: organization
dc: example
o: Example Org

dn: cn=admin,dc=example,dc=org
objectClass: simpleSecurityObject
objectClass: organizationalRole
cn: admin
description: directory administrator
userPassword: admin-password

dn: ou=people,dc=example,dc=org
objectClass: organizationalUnit
ou: people

dn: ou=service,dc=example,dc=org
objectClass: organizationalUnit
ou: service

dn: ou=groups,dc=example,dc=org
objectClass: organizationalUnit
ou: groups

dn: cn=svc-app1,ou=service,dc=example,dc=org
objectClass: inetOrgPerson
cn: svc-app1
sn: svc-app1
uid: svc-app1
userPassword: svc-app1-password

dn: cn=svc-batch1,ou=service,dc=example,dc=org
objectClass: inetOrgPerson
cn: svc-batch1
sn: svc-batch1
uid: svc-batch1
userPassword: {SSHA}OohpYFoXCAn/xA0X4dnnaxkWzwRjLWJhdGNoMQ==

dn: cn=svc-batch2,ou=service,dc=example,dc=org
objectClass: inetOrgPerson
cn: svc-batch2
sn: svc-batch2
uid: svc-batch2
userPassword: {SSHA}eUfKDgDK8fjjnT7FcN3/vEXS2RdjLWJhdGNoMg==

dn: cn=svc-batch3,ou=service,dc=example,dc=org
objectClass: inetOrgPerson
cn: svc-batch3
sn: svc-batch3
uid: svc-batch3
userPassword: {SSHA}sWWUMTJMHWBoxIgt9ZObGDCsrmtjLWJhdGNoMw==

dn: cn=dev,ou=groups,dc=example,dc=org
objectClass: groupOfNames
cn: dev
member: cn=svc-app1,ou=service,dc=example,dc=org
member: cn=svc-batch1,ou=service,dc=example,dc=org
`;
