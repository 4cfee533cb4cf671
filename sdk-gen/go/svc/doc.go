// Infrastructure as code for the video platform's API: app tokens and event notification templates.
package svc
